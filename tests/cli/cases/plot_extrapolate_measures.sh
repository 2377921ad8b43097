# extrapolate --plot draws one panel per measure its table holds (issue
# 36: the report's figure kept an empty "(d) shift: not measured" panel):
# through the stand-in gnuplot's table terminal, the panels drawn and
# their titles' letters; with unseen and retrieval (as report runs it) two
# panels, (a) retrieval and (b) unseen; with entropy alone one panel whose
# key still names every series (alibi, rope/rope: the two schemes run);
# shift alone the same.
. "$(dirname "$0")/../table_gnuplot.sh"
for m in unseen,retrieval entropy shift; do
  "$ROPELAB" extrapolate --train-len 16 --eval-len 64 --dim 8 --samples 4 --scheme alibi,rope \
    --measure $m -o x.csv --plot x.png 2>/dev/null || exit 1
  echo "$m: $(grep -c '^# Curve 0 of' x.table) panels; titles:" \
    $(sed -n 's/^# Curve title: "\(.*\)"$/\1/p' x.table | tr '\n' ' ')
done
