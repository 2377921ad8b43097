# profile's and params' sweeps draw (no values pinned: each drawn curve
# must equal the CSV's rows of its swept value).  profile --base 100,10000
# draws rope_same against r, a curve per base; params --scheme alibi
# --heads 4,8 draws slope against head, a curve per head count.  Through
# the "table" terminal (6 significant digits: 1e-5 relative, 1e-12
# absolute near 0).
. "$(dirname "$0")/../table_gnuplot.sh"
same() { # CSV, swept column index, x index, y index, drawn table
  awk -F, -v s="$2" -v x="$3" -v y="$4" '!/^#/ && NR > 1 { k = $s; if (!(k in seen)) { seen[k] = 1; o[n++] = k }
    p[k] = p[k] " " $x ":" $y } END { for (i = 0; i < n; i++) print o[i] p[o[i]] }' "$1" > want
  awk '/^# Curve title/ { c++ } /^ *[-0-9]/ { p[c] = p[c] " " $1 ":" $2 } END { for (i = 1; i <= c; i++) print p[i] }' "$5" > got
  paste -d'#' want got | awk -F'#' '{ n = split($1, a, " "); m = split($2, b, " ");
    bad = (n - 1 != m); for (i = 2; i <= n && !bad; i++) { split(a[i], u, ":"); split(b[i - 1], v, ":");
      if (u[1] != v[1] || (u[2] - v[2]) ^ 2 > (1e-5 * u[2]) ^ 2 + 1e-24) bad = 1 }
    print a[1] ": " n - 1 " points" (bad ? " DIFFERS" : " same") }'
}
"$ROPELAB" profile --scheme rope --base 100,10000 --to 32 --samples 10 -o p.csv --plot p.png || exit 1
head -1 p.csv | grep -v '^#' || sed -n '/^[a-z]/{p;q}' p.csv
same p.csv 1 2 3 p.table
"$ROPELAB" params --scheme alibi --heads 4,8 -o a.csv --plot a.png || exit 1
same a.csv 1 2 3 a.table
# a method that does not take the panel's option (rope, no --factor) is
# the baseline drawn in every panel, not a panel "factor = n/a" of its own
"$ROPELAB" decay --method rope,linear --factor 2,4 --train-len 64 --to 20 -o d.csv --plot d.png ||
  exit 1
echo "rope curves: $(grep -c '^# Curve title: "rope"' d.table), linear: $(grep -c '^# Curve title: "linear"' d.table)"
awk -F, '!/^#/ && $1 == "rope" { n++; if ($2 != "") f++ } END { print n " rope rows, " f + 0 " with a factor" }' d.csv
