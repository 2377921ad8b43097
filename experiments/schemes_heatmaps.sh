#!/bin/sh
# schemes_heatmaps.sh [OUTDIR]: heatmaps of each scheme's positional logit
# (total - cc) over 128 x 128 positions, the same content at every
# position (so relative schemes show pure diagonals), d = 64, head 0.
# Writes OUTDIR/<scheme>.csv (grid format) and OUTDIR/<scheme>.png.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/out/schemes_heatmaps}
"$top/experiments/setup.sh"
rl=$top/build/src/ropelab
mkdir -p "$out"
for s in nope sinusoidal learned xl t5 tupe deberta alibi rope rope2d integer binary; do
  "$rl" matrix --scheme "$s" --dim 64 --len 128 --term positional --content same --format grid \
    -o "$out/$s.csv" --plot "$out/$s.png"
  echo "$out/$s.png" >&2
done
