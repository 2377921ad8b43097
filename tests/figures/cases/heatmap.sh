# figures: heatmap.gp
# matrix --plot (and experiments/schemes_heatmaps.sh): RoPE's total logit
# (diverging palette) and ALiBi's positional logit (sequential), grid and
# long formats; layout at both text sizes (the colour box's label beside
# its tick labels).  Drawn (table terminal, x y z per cell): the CSV's
# smallest and largest value are among the drawn cells' z, by awk on the
# grid (every cell of rows of numbers) and on the long table's first
# term column (column 3).  ALiBi's positional logit is -m |i - j| with
# head 0's slope m = 2^(-8/8) = 1/2 of 8 heads (Press et al. 2022, sec.
# 3): its closed-form extremes 0 (the diagonal) and -15.5 (|i - j| = 31)
# are drawn too.
. "$(dirname "$0")/../figure.sh"
zext() { # zext CSV TABLE FORMAT: the CSV's extremes among the drawn z
  if [ "$3" = grid ]; then
    awk -F, '!/^#/ && $1 ~ /^[-0-9.]/ { for (i = 1; i <= NF; i++) print $i }' "$1"
  else
    awk -F, '!/^#/ && $1 ~ /^[0-9]/ { print $3 }' "$1"
  fi | sort -g | sed -n '1p;$p' > ext
  zdrawn ext "$2"
}
zdrawn() { # zdrawn FILE TABLE: FILE's smallest and largest value among the drawn z
  awk 'NR == FNR { w[++n] = $1; next } /^ *[-0-9]/ && NF >= 3 { for (k = 1; k <= n; k++) if (($3 - w[k]) ^ 2 <= (1e-5 * w[k]) ^ 2 + 1e-30) got[k] = 1 }
    END { print "smallest value " (got[1] ? "drawn" : "NOT drawn") ", largest value " (got[2] ? "drawn" : "NOT drawn") }' "$1" "$2"
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
    if [ $s = alibi ]; then
      printf '%s\n' -15.5 0 > closed
      zdrawn closed m.table | sed 's/^/closed form: /'
    fi
  done
done
