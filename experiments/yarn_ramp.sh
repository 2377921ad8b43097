#!/bin/sh
# yarn_ramp.sh [OUTDIR]: YaRN's ramp for Llama 2 (d = 128, base 10000,
# L = 4096, s = 8, beta_fast 32, beta_slow 1): the fraction of the plain
# frequency each pair keeps,
#   gamma_i = (ratio_i - 1/s) / (1 - 1/s),  ratio_i = theta_i / theta_i^RoPE,
# for the code's ramp (linear in the pair index; hf with --truncate yes,
# the range rounded outward as ggml and vLLM always do, and --truncate no)
# and the paper's ramp (linear in r = L / lambda_i, Peng et al. 2023,
# eq. 18-20).  The correction range (the unrounded pair indices where a
# pair turns beta_fast and beta_slow times within L) is read from the
# '# schedule=' metadata line ropelab writes.  Outputs: one freqs CSV per
# form, gamma.csv (pair, r_i = L/lambda_i, one gamma column per form) and
# gamma.png (plots/yarn_ramp.gp).  OUTDIR defaults to out/yarn_ramp.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/out/yarn_ramp}

"$top/experiments/setup.sh" "$top/build"
ropelab=$top/build/src/ropelab

mkdir -p "$out"
common="--method yarn --dim 128 --base 10000 --train-len 4096 --factor 8"
# shellcheck disable=SC2086
"$ropelab" freqs $common --ramp code --truncate yes -o "$out/code-truncate.csv"
# shellcheck disable=SC2086
"$ropelab" freqs $common --ramp code --truncate no -o "$out/code-exact.csv"
# shellcheck disable=SC2086
"$ropelab" freqs $common --ramp paper -o "$out/paper.csv"

# "... correction range 20.944481620636054 .. 45.026881273754547 before rounding, 20 .. 46 used"
range=$(sed -n 's/^# schedule=.*correction range \([0-9.]*\) \.\. \([0-9.]*\) before rounding, \([0-9]*\) \.\. \([0-9]*\) used.*/\1 \2 \3 \4/p' \
  "$out/code-truncate.csv")
[ -n "$range" ] || { echo "yarn_ramp: no correction range in the schedule metadata" >&2; exit 1; }
# shellcheck disable=SC2086
set -- $range
low=$1 high=$2 lowr=$3 highr=$4

{
  printf '# experiment=yarn_ramp: d = 128, base 10000, L = 4096, s = 8, beta_fast 32, beta_slow 1\n'
  printf '# correction_low=%s\n# correction_high=%s\n# rounded_low=%s\n# rounded_high=%s\n' "$low" "$high" "$lowr" "$highr"
  printf '# series.code_truncate=code ramp, range rounded to %s .. %s (hf truncate yes; ggml, vllm)\n' "$lowr" "$highr"
  printf '# series.code_exact=code ramp, range %.2f .. %.2f unrounded (hf truncate no)\n' "$low" "$high"
  printf '# series.paper=paper ramp, linear in r = L/lambda (eq. 18-20)\n'
  awk -F, -v s=8 '
    FNR == 1 { f++; hdr = 0 }
    /^#/ { next }
    !hdr { hdr = 1; for (i = 1; i <= NF; i++) { if ($i == "ratio") c[f] = i; if ($i == "rotations") rc = i }; next }
    { g[f, $1] = ($(c[f]) - 1 / s) / (1 - 1 / s); if (f == 1) r[$1] = $(rc); if ($1 + 0 > maxp) maxp = $1 + 0 }
    END {
      print "pair,r,code_truncate,code_exact,paper"
      for (p = 0; p <= maxp; p++) printf "%d,%.17g,%.17g,%.17g,%.17g\n", p, r[p], g[1, p], g[2, p], g[3, p]
    }' "$out/code-truncate.csv" "$out/code-exact.csv" "$out/paper.csv"
} > "$out/gamma.csv.tmp"
mv "$out/gamma.csv.tmp" "$out/gamma.csv"

gnuplot -c "$top/plots/yarn_ramp.gp" "$out/gamma.csv" "$out/gamma.png" pngcairo

echo "correction range (from the schedule metadata): $low .. $high, rounded $lowr .. $highr"
echo "data:   $out/gamma.csv (and the three freqs CSVs in $out)"
echo "figure: $out/gamma.png"
