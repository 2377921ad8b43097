# bound men --plot at d = 128: where the paper's Table 1 and Su's values
# agree (1K and 4K: 4.3e3 and 2.7e4 both, from the two sources), the
# paper's marks must not hide under Su's: gnuplot draws its curves in
# order, so Su's (the larger open circles) come first, then the paper's,
# then this table's small dots.  Checked in gnuplot's table output: the
# curve titles in drawing order, and the published curves holding the
# two lengths with equal values.
. "$(dirname "$0")/../table_gnuplot.sh"
"$ROPELAB" bound men --len 1024,4096 --fit -o m.csv --plot m.png 2>/dev/null || exit 1
grep '^# Curve title' m.table | sed 's/^# Curve title: //'
awk '/^# Curve title/ { t = $0 } /^ *[0-9]/ && $3 == "i" && t ~ /Su|paper/ && ($1 == 1024 || $1 == 4096) {
  v[$1] = v[$1] " " $2 } END { print "1024:" v[1024]; print "4096:" v[4096] }' m.table
