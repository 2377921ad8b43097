# ropelab plot groups rows as seaborn's relplot: a curve per --hue value,
# a panel per --col value, in the order values first occur.  A stand-in
# gnuplot on PATH runs the real one with the "table" terminal (the drawn
# points as text).  Expected, by hand from the CSV below: panel P draws
# a = (1,10),(2,20) and b = (1,11); panel Q draws a = (1,30) (the row
# with an empty y is left out) and b, which has no row there, as a single
# point that a line does not show (the first point of the table, (1,10)).
. "$(dirname "$0")/../table_gnuplot.sh"
printf '# command=made by hand\nx,y,g,p\n1,10,a,P\n2,20,a,P\n1,11,b,P\n1,30,a,Q\n3,,a,Q\n' > t.csv
"$ROPELAB" plot t.csv --x x --y y --hue g --col p -o t.png || exit 1
awk '/^# Curve title/ { print "curve " $4 } /^ *[0-9]/ { print "  " $1 "," $2 }' t.table
# errors: an unknown column with the closest name, a missing option
"$ROPELAB" plot t.csv --x x --y yy -o u.png 2>&1; echo "rc $?"
"$ROPELAB" plot t.csv --x x -o u.png 2>&1; echo "rc $?"
[ -e u.png ] && echo "u.png written"; exit 0
