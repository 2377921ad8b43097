# audit names whole-table bugs (cos and sin exchanged, every sin negated)
# Exit 1 where the table is not a clean RoPE (broken pairs, unidentified, a
# bug found): audit fails such a table in CI (issue 36 item 6; it was exit 0).
# (tests/audit/np_tables.py, Debian's python3-numpy; each table built
# independently of ropelab, the bug made deliberately):
#  - swapcs: HF rope float32, d = 64, base 10000, half layout, with cos and
#    sin exchanged; vllm-swap: vLLM's cos_sin_cache cat(cos, sin) with its
#    halves exchanged, split as users split it (pairs layout); negsin:
#    every sin negated (R(-m theta)).  Expected: the finding for the bug,
#    and the table read the other way is "rope base 10000" in the layout
#    built (half, pairs, half), hf-fp32 (correctly rounded powf/cosf/sinf
#    are glibc's in practice).
py=
for p in /usr/bin/python3 python3; do
  "$p" -c 'import numpy' 2>/dev/null && { py=$p; break; }
done
[ -n "$py" ] || exit 77
gen=$(dirname "$0")/../../audit/np_tables.py
for k in swapcs vllm-swap negsin; do
  "$py" "$gen" $k $k.npy ${k}_sin.npy || exit 1
done
for k in swapcs vllm-swap negsin; do
  "$ROPELAB" audit $k.npy --sin ${k}_sin.npy > out.csv 2>err.txt; echo "exit $?"
  sed -n 's/^# identified=//p; s/^# finding=\(.*\)\(;[^;]*\)$/\2/p' out.csv
  sed -n 's/^# finding=\([^:(]*[a-z]\).*/\1/p' out.csv
  grep -c "^ropelab audit: $k.npy: finding: " err.txt
done
exit 0
