# A sweep's --plot draws its one table: bound against r, a curve per
# swept method (rope, the baseline without --factor, included), a panel
# per --dim.  Through the "table" terminal each drawn curve must equal the
# CSV's rows of its method and dim (awk groups the CSV itself; the table
# prints 6 significant digits, so 1e-5 relative).
. "$(dirname "$0")/../table_gnuplot.sh"
"$ROPELAB" decay --method rope,linear,yarn --dim 8,16 --factor 8 --train-len 64 --to 50 \
  -o d.csv --plot d.png || exit 1
# the curves in drawing order: panel (dim) outer, method inner
awk -F, '!/^#/ && $1 != "method" { print $2 "|" $1 "|" $4 "|" $5 }' d.csv |
  sort -t'|' -k1,1n -s | awk -F'|' '{ k = $1 "|" $2; if (!(k in seen)) { seen[k] = 1; order[n++] = k }
    pts[k] = pts[k] " " $3 ":" $4 } END { for (i = 0; i < n; i++) print order[i] pts[order[i]] }' > want
awk '/^# Curve title/ { c++ } /^ *[0-9]/ { p[c] = p[c] " " $1 ":" $2 } END { for (i = 1; i <= c; i++) print p[i] }' d.table > got
# pair each wanted curve with the drawn one, value by value
paste -d'#' want got | awk -F'#' '{ n = split($1, a, " "); m = split($2, b, " ");
  bad = (n - 1 != m); for (i = 2; i <= n && !bad; i++) { split(a[i], u, ":"); split(b[i - 1], v, ":");
    if (u[1] != v[1] || (u[2] - v[2]) ^ 2 > (1e-5 * u[2]) ^ 2 + 1e-24) bad = 1 }
  print a[1] (bad ? " DIFFERS" : " same") }'
grep -c '^# Curve title: "rope"' d.table
# without -o the table goes to standard output (the figure drawn from a
# temp copy, which is removed): the same table as with -o
"$ROPELAB" decay --method rope,yarn --factor 8 --train-len 4096 --to 64 --plot e.png | grep -v '^# command=' > e.csv
"$ROPELAB" decay --method rope,yarn --factor 8 --train-len 4096 --to 64 -o e2.csv
grep -v '^# command=' e2.csv | cmp - e.csv && test -s e.png && echo "no -o: the same table on stdout, and the figure"
