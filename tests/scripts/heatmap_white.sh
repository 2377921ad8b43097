#!/bin/sh
# heatmap_white.sh HEATMAP.GP: the diverging palettes of plots/heatmap.gp,
# whose colour box says "white = 0" on a range symmetric about 0, give 0
# white: gnuplot's own sampling of each palette ('test palette', 256
# samples in $PALETTE: gray r g b), at the two samples either side of the
# middle, has r, g and b >= 0.99 (the interpolation towards the next
# colour moves them by < 0.01 over 1/256 of the range).  ColorBrewer's
# RdBu middle, #f7f7f7, gives 0.968: light grey.  Skips without gnuplot.
set -u
gp=$1
command -v gnuplot >/dev/null 2>&1 || { echo "no gnuplot: skipped"; exit 77; }
lines=$(grep -E '^ *set palette defined .*#2166ac' "$gp")
[ -n "$lines" ] || { echo "no diverging palette in $gp"; exit 1; }
bad=0
printf '%s\n' "$lines" | while IFS= read -r line; do
  mid=$(gnuplot -e "$line; set terminal dumb; set output '/dev/null'; test palette; print \$PALETTE[128]; print \$PALETTE[129]" 2>&1 | tail -n 2)
  printf '%s\n' "$mid" | awk '{ if ($2 < 0.99 || $3 < 0.99 || $4 < 0.99) bad = 1 } END { exit bad }' ||
    { echo "0 is not white in: $line"; printf '%s\n' "$mid"; exit 1; }
done || bad=1
[ $bad -eq 0 ] && echo "ok: 0 is white in every diverging palette"
exit $bad
