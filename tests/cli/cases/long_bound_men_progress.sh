# issue 33 item 5: bound men's progress moves within one length (the
# search counted only lengths done, so one long length, --len 1e7 --dim
# 1024, was silent for minutes, and the check of a given --base showed no
# progress at all).  With --progress both say 0% at once, then the share
# of each length (not asserted: timing), and end at 100%; the tables go
# to the files only (one row each, plus the header).  Not timed.
"$ROPELAB" bound men --len 4096 --progress -o a.csv 2> err.txt || exit 1
tr '\r' '\n' < err.txt | grep -v '^$' | head -n 1
tr '\r' '\n' < err.txt | grep -q '^ropelab bound: 100%$' && echo "search: 100% shown"
grep -vc '^#' a.csv
"$ROPELAB" bound men --base 10000 --len 100000 --progress -o b.csv 2> err.txt || exit 1
tr '\r' '\n' < err.txt | grep -v '^$' | head -n 1
tr '\r' '\n' < err.txt | grep -q '^ropelab bound: 100%$' && echo "check: 100% shown"
grep -vc '^#' b.csv
