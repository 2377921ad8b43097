# without gnuplot on PATH: exit 3 with one line, but the CSV is written;
# no image and no temp file.
PATH=/nonexistent "$ROPELAB" decay --to 4 -o d.csv --plot d.png
rc=$?
ls -A
grep -c '^r,bound$' d.csv
exit $rc
