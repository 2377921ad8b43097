# The CI recipe of experiments/audit/README.md, run as
# users copy it, on Llama 3.1 tables written by independent code
# (../ci_tables.py with Debian's python3-numpy, ../ci_table.c with the
# system's cc and libm; never ropelab's output):
#   ropelab audit cos.npy --sin sin.npy --expect --layout half --dim 128 \
#     --method llama3 --factor 8 --base 500000 --train-len 8192
# Expected, from what each table is by construction (ci_tables.py's
# docstring): every correct float32 implementation passes (numpy's own
# `**` and cos, torch's ops, XLA's pow = exp(y log x), C with powf and
# with exp2f(-y log2f(base))), exit 0; each classic bug made deliberately
# fails, exit 1, and the diagnosis line names it: its words up to the
# first ':' are printed.  The YaRN recipe (--method yarn --factor 4 --dim
# 64 --train-len 4096) passes the YaRN table and names the dropped
# attention factor.  Identification alone (no schedule) must fail (exit
# 1) on every numpy bug table but layout (an interleaved table is a correct
# interleaved RoPE: only the claim --layout half makes it wrong; issue 36:
# an unidentified table in CI exited
# 0), and the offset table read with --positions 1:1024 is llama3 again.
py=
for p in /usr/bin/python3 python3; do
  "$p" -c 'import numpy' 2>/dev/null && { py=$p; break; }
done
[ -n "$py" ] || exit 77
command -v cc >/dev/null 2>&1 || exit 77
gen=$AUDIT_TESTS/ci_tables.py
recipe="--expect --layout half --dim 128 --method llama3 --factor 8 --base 500000 --train-len 8192"
yarn="--expect --layout half --dim 64 --method yarn --factor 4 --base 10000 --train-len 4096"
run() { # name, then audit's options
  n=$1; shift
  "$ROPELAB" audit c.npy --sin s.npy "$@" > out.csv 2> err.txt; rc=$?
  echo "$n: exit $rc $(sed -n 's/^ropelab audit: c.npy: diagnosis: \([^:;(]*\).*/\1/p' err.txt)"
}
for impl in numpy torch jax; do
  for bug in none offset stride arange layout sinsign swap anglebf16 thetabf16; do
    "$py" "$gen" $impl $bug c.npy s.npy || exit 1
    run "$impl $bug" $recipe
    [ $bug = none ] || [ $impl != numpy ] || { "$ROPELAB" audit c.npy --sin s.npy >/dev/null 2>&1
                         echo "  identification alone: exit $?"; }
  done
  for bug in yarn noattn; do
    "$py" "$gen" $impl $bug c.npy s.npy || exit 1
    run "$impl $bug" $yarn
  done
done
cc -O1 -o ci_table "$AUDIT_TESTS/ci_table.c" -lm || exit 1
for f in powf exp2f; do
  ./ci_table $f c.csv s.csv || exit 1
  "$ROPELAB" audit c.csv --sin s.csv $recipe > out.csv 2>&1; echo "C $f: exit $?"
  "$ROPELAB" check --table c.csv --sin s.csv $recipe --only table_values >/dev/null
  echo "C $f check --table --expect: exit $?"
done
"$py" "$gen" numpy offset c.npy s.npy
"$ROPELAB" audit c.npy --sin s.npy --positions 1:1024 > out.csv 2>/dev/null; echo "offset at 1:1024: exit $?"
sed -n 's/^# identified=//p' out.csv
"$py" "$gen" numpy noattn c.npy s.npy
"$ROPELAB" audit c.npy --sin s.npy > out.csv 2>/dev/null; echo "noattn identified: exit $?"
sed -n 's/^# finding=\([^:]*\):.*/\1/p' out.csv
exit 0
