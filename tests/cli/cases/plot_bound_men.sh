# bound men --plot: a non-empty PNG; the SVG's title names d and the
# search; the published values (paper's fit, Table 1, Su) are drawn for
# d = 128 only; the --fit key shows the fit through the table's two
# points, worked here by awk from the CSV's bases: k = ln(b2/b1) / ln 2,
# a = b1 / 1024^k (least squares through two points is the line through
# them; ropelab fits by least squares in log-log).
command -v gnuplot >/dev/null 2>&1 || { echo "no gnuplot" >&2; exit 77; }
"$ROPELAB" bound men --len 1024,2048 --plot m.png > /dev/null || exit 1
test -s m.png && head -c 4 m.png | od -An -c | tr -s ' ' | sed 's/^ //'
"$ROPELAB" bound men --len 1024,2048 --fit --plot m.svg > m.csv || exit 1
grep -o 'for all r &lt; L, d = 128' m.svg
grep -o "Su's staged grid: 5 decimal stages from 1000 L" m.svg
want=$(awk -F, '!/^#/ && $3 == 1024 { b1 = $4 } !/^#/ && $3 == 2048 { b2 = $4 }
  END { k = log(b2 / b1) / log(2); printf "fit to this table: %.4g L^%.4f", b1 / 1024 ^ k, k }' m.csv)
echo "fit key matches: $(grep -c "$want" m.svg)"
echo "published at d 128: $(grep -c 'paper, Table 1' m.svg)"
"$ROPELAB" bound men --dim 64 --len 1024,2048 --search fine --plot m64.svg > /dev/null || exit 1
grep -o 'for all r &lt; L, d = 64' m64.svg
grep -o 'fine search: steps of 1 + 1e-08' m64.svg
echo "published at d 64: $(grep -c 'paper, Table 1' m64.svg)"
