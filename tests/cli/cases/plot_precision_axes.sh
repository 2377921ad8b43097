# plots/precision.gp: the x axis ends at the table's last position (the
# issue found it running to 10^6 for data ending at 131072), and each y
# axis holds one unit: the entry and logit errors (plain numbers) on the
# left, the angle's (radians) on the right.  The positions' range by awk
# on the CSV; the drawn x range printed by the script in table mode
# (gnuplot's GPVAL_X_MIN/MAX after each panel); the axis labels from the
# SVG.  The range is compared within 1e-12 relative: gnuplot keeps a log
# axis' limits as logarithms, so exp(log(1000)) comes back a few ulps off.
command -v gnuplot >/dev/null || exit 77
plots=$(dirname "$0")/../../../plots
"$ROPELAB" precision --dim 8 --to 1000 --points 6 --precision fp64,hf-fp32 -o env.csv || exit 1
awk -F, '!/^#/ && $3 + 0 > 0 { if (lo == "" || $3 + 0 < lo) lo = $3 + 0; if ($3 + 0 > hi) hi = $3 + 0 }
  END { print "data positions:", lo, hi }' env.csv
gnuplot -c "$plots/precision.gp" env.csv env.table table 2>err.txt || exit 1
sed -n 's/^panel *\([0-9]*\) *x range: *\(.*\)/\1 \2/p' err.txt |
  awk -v lo="$(awk -F, '!/^#/ && $3 + 0 > 0 { print $3; exit }' env.csv)" \
      -v hi="$(awk -F, '!/^#/ && $3 + 0 > m { m = $3 + 0 } END { print m }' env.csv)" \
  'function same(a, b) { return (a - b) ^ 2 <= (1e-12 * b) ^ 2 }
   { print "panel " $1 " x axis from the first to the last position:", (same($2, lo) && same($3, hi)) ? "yes" : "no (" $2 " " $3 ")" }'
gnuplot -c "$plots/precision.gp" env.csv env.svg svg || exit 1
grep -o '>[^<]*(no unit)<' env.svg | sort -u
grep -o '>angle (rad)<' env.svg | sort -u
# no axis label names radians beside the unitless quantities
echo "mixed labels: $(grep -c 'no unit[^<]*rad' env.svg)"
