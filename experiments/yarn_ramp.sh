#!/bin/sh
# yarn_ramp.sh [OUTDIR]: YaRN's ramp for Llama 2 (d = 128, base 10000,
# L = 4096, s = 8, beta_fast 32, beta_slow 1): the fraction of the plain
# frequency each pair keeps, gamma_i = (ratio_i - 1/s) / (1 - 1/s), for
# the code's ramp (linear in the pair index: hf's --truncate yes, the
# range rounded outward as ggml and vLLM always do, and --truncate no)
# and the paper's ramp (linear in r = L / lambda_i, Peng et al. 2023,
# eq. 18-20).  One freqs sweep writes the three forms (the paper's ramp
# has no truncation: its cell is empty); plots/yarn_ramp.gp computes gamma
# from the ratio column and reads the correction range from the
# schedule metadata.  Outputs ramp.csv and gamma.png in OUTDIR
# (default out/yarn_ramp).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/out/yarn_ramp}

"$top/experiments/setup.sh" "$top/build"
mkdir -p "$out"
"$top/build/src/ropelab" freqs --method yarn --dim 128 --base 10000 --train-len 4096 --factor 8 \
  --ramp code,paper --truncate yes,no -o "$out/ramp.csv"
gnuplot -c "$top/plots/yarn_ramp.gp" "$out/ramp.csv" "$out/gamma.png"

echo "data:   $out/ramp.csv"
echo "figure: $out/gamma.png"
