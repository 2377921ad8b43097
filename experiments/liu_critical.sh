#!/bin/sh
# liu_critical.sh [OUTDIR]: Liu et al. 2023 (scaling laws of RoPE-based
# extrapolation), eq. 13: the critical dimension against the pre-training
# length T_train = 512..1M, for base 500, 10000 and 1e6 (d = 128); the
# LLaMA 2 point (4096, 92) is the paper's.  critical.csv, critical.png.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/out/liu_critical}

"$top/experiments/setup.sh" "$top/build"
ropelab=$top/build/src/ropelab

mkdir -p "$out"
for b in 500 10000 1000000; do
  "$ropelab" bound liu --dim 128 --base $b --len 512:1048576:x1.1892071150027210667 \
    -o "$out/critical_$b.csv"
done
gnuplot -c "$top/plots/liu_critical.gp" "$out" "$out/critical.png"
echo "data:   $out/critical_*.csv"
echo "figure: $out/critical.png"
