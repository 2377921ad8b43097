# audit names a bfloat16 table whose attention factor was applied after
# the cast (tests/audit/np_tables.py, Debian's python3-numpy, independent
# of ropelab):
#  - yarn-bf16-after: HF yarn d = 64, base 10000, factor 4, L = 4096,
#    positions 0..511, in bfloat16 with the attention factor 0.1 ln 4 + 1
#    applied after the cast.  Expected: all 512 x 64 x 2 = 65536 entries
#    follow that order, and as many follow transformers' order as numpy
#    counts equal entries between yarn-bf16-after and yarn-bf16 (the
#    generator's own two tables, printed beside ropelab's count);
#    yarn-bf16 (transformers' order) has no finding.
py=
for p in /usr/bin/python3 python3; do
  "$p" -c 'import numpy' 2>/dev/null && { py=$p; break; }
done
[ -n "$py" ] || exit 77
gen=$(dirname "$0")/../../audit/np_tables.py
for k in yarn-bf16 yarn-bf16-after; do
  "$py" "$gen" $k $k.npy ${k}_sin.npy || exit 1
done
"$ROPELAB" audit yarn-bf16.npy --sin yarn-bf16_sin.npy > out.csv 2>err.txt; echo "exit $?"
sed -n 's/^# identified=//p' out.csv; grep -c finding out.csv err.txt
"$ROPELAB" audit yarn-bf16-after.npy --sin yarn-bf16-after_sin.npy > out.csv 2>err.txt
echo "exit $?"
sed -n 's/^# identified=//p' out.csv
got=$(sed -n 's/^# finding=.* \([0-9]*\) of \([0-9]*\) entries .* bit for bit, \([0-9]*\) are .*/\1 \2 \3/p' out.csv)
want=$("$py" -c '
import numpy as np
a = [np.load(f) for f in ("yarn-bf16-after.npy", "yarn-bf16-after_sin.npy")]
b = [np.load(f) for f in ("yarn-bf16.npy", "yarn-bf16_sin.npy")]
n = sum(x.size for x in a)
print(n, n, sum(int((x == y).sum()) for x, y in zip(a, b)))')
echo "after, total, before: $got"
[ "$got" = "$want" ] && echo "counts as numpy's" || echo "counts differ from numpy's: $want"
exit 0
