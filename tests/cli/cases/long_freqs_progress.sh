# issue 33 item 5: freqs at d = 2^20 writes 2^19 rows (seconds on a loaded
# machine) and was silent; with --progress it shows its progress to 100%
# on stderr, the table on the file only.  Not timed (the time left shows
# only in updates before the end, and on an idle machine this run may end
# before its first: long_progress_eta checks the time left).  Rows: d/2 = 524288 plus the
# header row (by hand).
"$ROPELAB" freqs --dim 1048576 --progress -o a.csv 2> err.txt || exit 1
tr '\r' '\n' < err.txt | grep -c '100%'
grep -vc '^#' a.csv
