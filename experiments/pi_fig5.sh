#!/bin/sh
# pi_fig5.sh [OUTDIR]: Chen et al. 2023 (position interpolation), Appendix
# B Figure 5: B(s)/d for d = 128, base 10000, s = 0..4095, where B(s) is
# the sum of |partial sums| in the extrapolation bound (their eq. 8); with
# the line 1 (B(s) = d) their "~600x" argument rests on.  pi.csv, pi.png.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/out/pi_fig5}

"$top/experiments/setup.sh" "$top/build"
ropelab=$top/build/src/ropelab

mkdir -p "$out"
"$ropelab" bound pi --dim 128 --base 10000 --from 0 --to 4095 -o "$out/pi.csv"
gnuplot -c "$top/plots/pi_fig5.gp" "$out/pi.csv" "$out/pi.png"
echo "data:   $out/pi.csv"
echo "figure: $out/pi.png"
