# figures: freqs.gp
# freqs --plot: plain RoPE (one panel) and YaRN (a second panel with each
# pair's ratio to RoPE), layout at both text sizes.  Drawn (table
# terminal): theta is drawn as log10(theta) on linear axes (the
# wavelength axis is linked to it), so the extremes of the CSV's theta
# are checked as log10 by awk: pair 0's theta = 1 (log 0) and the last
# pair's; YaRN's ratio panel reaches the CSV's smallest and largest ratio.
. "$(dirname "$0")/../figure.sh"
for m in rope yarn; do
  f=
  [ $m = yarn ] && f="--factor 8"
  # shellcheck disable=SC2086 # $f: no option or two words
  "$ROPELAB" freqs --dim 128 --train-len 4096 --method $m $f -o f.csv --plot f.svg || exit 1
  echo "--method $m:"
  layout f.svg
  gnuplot -c "$plots/freqs.gp" f.csv f.table table || exit 1
  awk -F, 'NR > 1 && !/^#/ { if (lo == "" || $2 < lo) { lo = $2; lp = $1 } if ($2 > hi) { hi = $2; hp = $1 } }
    END { printf "%s %.17g\n%s %.17g\n", lp, log(lo) / log(10), hp, log(hi) / log(10) }' f.csv |
    while read -r x y; do drawn point f.table "$x" "$y" | sed 's/^([^)]*)/log10 theta extreme/'; done
  [ $m = yarn ] && drawn extremes f.table f.csv ratio --x pair --panel 2
done
exit 0
