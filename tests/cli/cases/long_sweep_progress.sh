# issue 33 item 5: a sweep first runs every point up to its header (to
# check it and take its metadata), for freqs the whole schedule: that pass
# was silent (freqs --dim 2:1048576:2 ran for hours without a byte on
# stderr).  With --progress it shows its own line, 'checking sweep
# points', to 100%, then the table's; the table goes to the file only.
# Not timed.  Points d = 2, 4, 6, 8: rows 1 + 2 + 3 + 4 = 10 plus the
# header (by hand).
"$ROPELAB" freqs --dim 2:8:2 --progress -o a.csv 2> err.txt || exit 1
tr '\r' '\n' < err.txt | grep -q '^ropelab freqs: checking sweep points: 100%$' &&
  echo "checking pass shown"
tr '\r' '\n' < err.txt | grep -q '^ropelab freqs: 100%$' && echo "table pass shown"
grep -vc '^#' a.csv
