#!/bin/sh
# liu_critical.sh [OUTDIR]: Liu et al. 2023 (scaling laws of RoPE-based
# extrapolation), eq. 13: the critical dimension against the pre-training
# length T_train = 512..1M, for base 500, 10000 and 1e6 (d = 128); the
# LLaMA 2 point (4096, 92) is the paper's.  critical.csv, critical.png.
# Lengths 1% apart: eq. 13 steps by 2 each time T_train grows by base^(1/64)
# (10% at base 500), so the figure's steps sit within 1% of eq. 13's (a
# grid 19% apart drew 88 up to 4096 where eq. 13 is 90 from 3533).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/out/liu_critical}

"$top/experiments/setup.sh" "$top/build"
ropelab=$top/build/src/ropelab

mkdir -p "$out"
for b in 500 10000 1000000; do
  "$ropelab" bound liu --dim 128 --base $b --len 512:1048576:x1.01 \
    -o "$out/critical_$b.csv"
done
gnuplot -c "$top/plots/liu_critical.gp" "$out" "$out/critical.png"
echo "data:   $out/critical_*.csv"
echo "figure: $out/critical.png"
