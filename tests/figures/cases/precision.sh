# figures: precision.gp
# precision --plot (issue 36, item 7: "the key is struck through by
# curves, the y axis spans 1e-16..1 for data in 1e-4..1e-2").  Layout at
# the SVG's and the PNG's text size for every pipeline (ten panels), one
# pipeline (bf16: every curve near the top, where the key was) and one
# against another.  The y axis from the data: its ends (gnuplot's
# GPVAL_Y_MIN/MAX, printed per panel in table mode) are the decades just
# below the smallest positive error and just above the largest, by awk on
# the CSV (columns cos_err..logit_err of rows with a position > 0).
# Drawn (table terminal): hf-bf16's positive angle and logit errors reach
# their extremes at their positions; cos/sin is drawn as max(cos_err,
# sin_err) per row, whose extremes are checked on a column awk builds.
. "$(dirname "$0")/../figure.sh"
yaxis() { # yaxis CSV ERRFILE: the drawn y range against the data's decades
  awk -F, '!/^#/ && $1 != "precision" && $3 + 0 > 0 { for (i = 4; i <= 7; i++) if ($i + 0 > 0) {
      if (lo == "" || $i + 0 < lo) lo = $i + 0; if ($i + 0 > hi) hi = $i + 0 } }
    END { print lo, hi }' "$1" > range
  sed -n 's/^panel *\([0-9]*\) *y range: *\(.*\)/\1 \2/p' "$2" | awk -v r="$(cat range)" '
    BEGIN { split(r, d, " ") }
    { ok = $2 <= d[1] * (1 + 1e-12) && $2 * 10 > d[1] * (1 + 1e-12) && $3 >= d[2] * (1 - 1e-12) && $3 < 10 * d[2] * (1 - 1e-12)
      print "panel " $1 " y axis within a decade of the data at both ends: " (ok ? "yes" : "no (" $2 " " $3 " for " d[1] " " d[2] ")") }'
}
"$ROPELAB" precision --dim 64 --to 4096 --points 12 -o all.csv --plot all.svg || exit 1
echo "every pipeline:"
layout all.svg
gnuplot -c "$plots/precision.gp" all.csv all.table table 2>err || exit 1
yaxis all.csv err | sed "s/^panel [0-9]* /every panel: /" | sort -u
"$ROPELAB" precision --precision hf-bf16 --dim 128 --to 32768 -o bf.csv --plot bf.svg || exit 1
echo "hf-bf16:"
layout bf.svg
gnuplot -c "$plots/precision.gp" bf.csv bf.table table 2>err || exit 1
yaxis bf.csv err
drawn extremes bf.table bf.csv angle_err,logit_err --x pos --positive
awk -F, 'NR == 1 { print "pos,entry"; next } !/^#/ { print $3 "," ($4 > $5 ? $4 : $5) }' bf.csv > entry.csv
drawn extremes bf.table entry.csv entry --x pos --positive
"$ROPELAB" precision --precision hf-bf16 --against hf-fp32 --dim 128 --to 32768 -o ag.csv --plot ag.svg || exit 1
echo "hf-bf16 against hf-fp32:"
layout ag.svg
gnuplot -c "$plots/precision.gp" ag.csv ag.table table 2>err || exit 1
yaxis ag.csv err
