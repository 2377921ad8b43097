# check --table on tables written by independent code (tests/audit/tables.py,
# Python standard library, float32 emulated with struct), never ropelab's
# output.  Expected verdicts follow from how each table was made:
#  - hf-f32 (HF float32, d = 64, base 10000, half layout, positions 0..63)
#    passes all four against --precision hf-fp32, and against the exact
#    values too: its float32 angles drift by about m ulp(theta), ~2e-6 at
#    m = 58, which a framework legitimately does (the values tolerance is
#    per entry, a(2|m| ulp(theta_i) + ulp(|m| theta_i)) + 2 eps a: at m =
#    58, theta_0 = 1, 2*58*2^-23 + 2^-18 + 2^-22 = 1.8e-05);
#  - swapped (the same values, halves put back interleaved) is still
#    relative and of norm 1 but fails table_layout and table_values;
#  - nonrel (position 40, pair 5 at 1.001 theta_5: angle off by 0.0095)
#    fails table_relative, and so does hf-f32 read with positions 10 and 11
#    swapped (--positions);
#  - f16-cast passes against hf-f16.
# The stated tolerances, in the table's own format epsilon (float32: 2^-23),
# derived by hand: relative 8 eps + 2 eps max|m| = 134 * 2^-23 = 1.6e-05;
# norm 4 eps = 4.8e-07; layout 2 eps = 2.4e-07 (a = 1); float16 (2^-10,
# angles in float32): relative 8 * 2^-10 + 126 * 2^-23 = 0.0078, norm
# 4 * 2^-10 = 0.0039, layout 2 * 2^-10 = 0.002.  table_values' tolerance
# is the entry's own (above), so only its verdict is printed.
command -v python3 >/dev/null 2>&1 || exit 77
gen=$(dirname "$0")/../../audit/tables.py
for k in hf-f32 swapped nonrel f16-cast; do python3 "$gen" $k $k.npy ${k}_sin.npy || exit 1; done
hf="--expect --dim 64 --layout half"
verdicts() { sed 's/ # error=[^ ]* tolerance=\([^ ]*\).*/ tol=\1/; s/ # SKIP.*/ skip/
  s/\(table_values\) tol=.*/\1/'; }
"$ROPELAB" check --table hf-f32.npy --sin hf-f32_sin.npy $hf --precision hf-fp32 --tap | verdicts
"$ROPELAB" check --table hf-f32.npy --sin hf-f32_sin.npy $hf --precision hf-fp32 >/dev/null
echo "hf-fp32: exit $?"
"$ROPELAB" check --table hf-f32.npy --sin hf-f32_sin.npy $hf --tap | verdicts
"$ROPELAB" check --table hf-f32.npy --sin hf-f32_sin.npy $hf >/dev/null; echo "exact: exit $?"
"$ROPELAB" check --table swapped.npy --sin swapped_sin.npy $hf --precision hf-fp32 --tap | verdicts
"$ROPELAB" check --table nonrel.npy --sin nonrel_sin.npy --tap | verdicts
"$ROPELAB" check --table nonrel.npy --sin nonrel_sin.npy >/dev/null; echo "nonrel: exit $?"
pos=$(seq 0 63 | awk '{ v = $1; if (v == 10) v = 11; else if (v == 11) v = 10
  printf "%s%s", (NR > 1 ? "," : ""), v }')
"$ROPELAB" check --table hf-f32.npy --sin hf-f32_sin.npy --positions "$pos" --only table_relative --tap | verdicts
"$ROPELAB" check --table f16-cast.npy --sin f16-cast_sin.npy $hf --precision hf-f16 --tap | verdicts
