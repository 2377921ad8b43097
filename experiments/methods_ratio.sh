#!/bin/sh
# methods_ratio.sh [OUTDIR]: each context-extension method's frequency
# ratio theta_i / theta_i^RoPE against the pair index i, for Llama 2's
# head (d = 128, base 10000, trained at L = 4096) stretched by s = 8:
# linear (position interpolation), static NTK, YaRN with the code's and
# the paper's ramp, Llama 3.1's bands (here with L = 4096), dynamic NTK
# (hf) at N = 32768 and p-RoPE with p = 0.75.  One `ropelab freqs` sweep
# writes ratio.csv (a row per method, ramp and pair), and
# plots/methods_ratio.gp draws ratio.png.  OUTDIR defaults to
# out/methods_ratio.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/out/methods_ratio}

"$top/experiments/setup.sh" "$top/build"
ropelab=$top/build/src/ropelab

mkdir -p "$out"
# one sweep: each method takes the options it has (an empty cell where it
# has none), and YaRN is drawn with both ramps
"$ropelab" freqs --dim 128 --base 10000 --train-len 4096 \
  --method linear,ntk,yarn,llama3,dynamic,p-rope --ramp code,paper --factor 8 \
  --low-freq-factor 1 --high-freq-factor 4 --seq-len 32768 --fraction 0.75 -o "$out/ratio.csv"
gnuplot -c "$top/plots/methods_ratio.gp" "$out/ratio.csv" "$out/ratio.png" pngcairo

echo "data:   $out/ratio.csv"
echo "figure: $out/ratio.png"
