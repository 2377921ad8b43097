# figures: heatmap.gp
# matrix --plot (and experiments/schemes_heatmaps.sh): RoPE's total logit
# (diverging palette) and ALiBi's positional logit (sequential), grid and
# long formats; layout at both text sizes (the colour box's label beside
# its tick labels).  Drawn (table terminal, x y z per cell): the CSV's
# smallest and largest value are among the drawn cells' z, by awk on the
# grid (every cell of rows of numbers) and on the long table's first
# term column (column 3).
. "$(dirname "$0")/../figure.sh"
zext() { # zext CSV TABLE FORMAT: the CSV's extremes among the drawn z
  if [ "$3" = grid ]; then
    awk -F, '!/^#/ && $1 ~ /^[-0-9.]/ { for (i = 1; i <= NF; i++) print $i }' "$1"
  else
    awk -F, '!/^#/ && $1 ~ /^[0-9]/ { print $3 }' "$1"
  fi | sort -g | sed -n '1p;$p' > ext
  awk 'NR == FNR { w[++n] = $1; next } /^ *[-0-9]/ && NF >= 3 { for (k = 1; k <= n; k++) if (($3 - w[k]) ^ 2 <= (1e-5 * w[k]) ^ 2 + 1e-30) got[k] = 1 }
    END { print "smallest value " (got[1] ? "drawn" : "NOT drawn") ", largest value " (got[2] ? "drawn" : "NOT drawn") }' ext "$2"
}
for s in rope alibi; do
  for f in grid long; do
    t=total
    [ $s = alibi ] && t=positional
    "$ROPELAB" matrix --scheme $s --dim 16 --len 32 --term $t --format $f -o m.csv --plot m.svg || exit 1
    echo "$s $t $f:"
    layout m.svg
    gnuplot -c "$plots/heatmap.gp" m.csv m.table table || exit 1
    zext m.csv m.table $f
  done
done
