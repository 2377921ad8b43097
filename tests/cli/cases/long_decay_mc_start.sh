# issue 33 item 5: decay's Monte Carlo shows its progress at 0% before the
# first chunk of rows, which with many samples is seconds of CPU (at
# --samples 1e7 and d = 128 one row is about 8 s; experiments/long_requests.sh
# found it silent), and still ends at 100% with a line that has the time
# left when one comes before the end.  Not timed: the first line's
# percentage is asserted (before, the first line came after a chunk).
"$ROPELAB" decay --to 3 --measure mc --samples 20000 --threads 1 --progress -o a.csv 2> err.txt || exit 1
tr '\r' '\n' < err.txt | grep . | head -1 | sed 's/ *$//'
tr '\r' '\n' < err.txt | grep . | tail -1 | sed 's/ *$//'
