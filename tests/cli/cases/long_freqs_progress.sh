# issue 33 item 5: freqs at d = 2^20 writes 2^19 rows (seconds on a loaded
# machine) and was silent; with --progress it shows the time left and 100%
# on stderr, the table on the file only.  Not timed.  Rows: d/2 = 524288
# plus the header row (by hand).
"$ROPELAB" freqs --dim 1048576 --progress -o a.csv 2> err.txt || exit 1
tr '\r' '\n' < err.txt | grep -c 'left' | awk '{ print ($1 >= 1 ? "time left shown" : "no time left") }'
tr '\r' '\n' < err.txt | grep -c '100%'
grep -vc '^#' a.csv
