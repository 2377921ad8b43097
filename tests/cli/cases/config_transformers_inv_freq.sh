# ropelab's exact frequencies for the shipped configs against the float32
# inv_freq transformers' own _compute_*_parameters gave for them
# (tests/models/inv_freq.txt, made once by tests/models/gen_inv_freq.py
# with Debian's python3-torch; provenance in both files).  Every pair must
# be there (so a wrong head dim or rotated width fails) and within
# 16 u = 2^-20 = 9.5367431640625e-07 relative (u = 2^-24, float32's unit roundoff):
#  - power-of-two rotated widths: 2i/r is exact, powf is within 1 ulp
#    (2u), the reciprocal and the final float32 rounding add u each: 4u;
#  - Phi-3 (r = 96): 2i/r rounds (relative u), which base^x turns into
#    ln(10000) u = 9.2u, plus the factor's float32 rounding and the
#    product: about 13u;
#  - llama3's smoothed band and yarn's ramp add a few roundings (each u)
#    of terms no larger than the result.
# Measured when the table was made: 5.4u at most (llama-3.1-8b pair 33).
set -e
top=$(dirname "$0")/../../..
ref=$top/tests/models/inv_freq.txt
for n in $(awk '!/^#/ {print $1}' "$ref" | sort -u); do
  # NAME@TYPE: a model with a RoPE per attention layer type (Gemma 3)
  case $n in
  *@*) "$ROPELAB" freqs --config "$top/experiments/models/${n%@*}.json" --layer-type "${n#*@}" \
         --no-meta > f.csv ;;
  *) "$ROPELAB" freqs --config "$top/experiments/models/$n.json" --no-meta > f.csv ;;
  esac
  awk -v n="$n" -v tol=9.5367431640625e-07 '
    NR == FNR { if ($1 == n) { want[$2] = $3; cnt++ } ; next }
    FNR == 1 { next }
    { split($0, f, ","); got++
      if (!(f[1] in want)) { bad = bad " extra pair " f[1]; next }
      e = (want[f[1]] - f[2]) / f[2]; if (e < 0) e = -e
      if (e > tol) bad = bad sprintf(" pair %s: %s vs %s (%.3g)", f[1], f[2], want[f[1]], e) }
    END { if (got != cnt) bad = bad sprintf(" %d pairs, expected %d", got, cnt)
          print (bad == "" ? "ok: " n " (" cnt " pairs)" : "not ok: " n bad) }' FS=' ' "$ref" FS=, f.csv
done
