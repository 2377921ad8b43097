# a sweep's --plot is checked before the first point, as one run's is:
# the same file as -o (the figure was drawn over the table, which was
# lost, exit 0), and a name gnuplot has no terminal for (the table was
# written, then gnuplot failed: exit 3); both exit 2 and write nothing
"$ROPELAB" decay --to 8 --base 500,1e4 -o u.png --plot u.png 2>err.txt; echo "rc $?"
cat err.txt
"$ROPELAB" decay --to 8 --base 500,1e4 -o v.csv --plot v.jpg 2>err.txt; echo "rc $?"
cat err.txt
ls
