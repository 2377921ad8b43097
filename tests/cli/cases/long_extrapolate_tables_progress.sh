# issue 33 item 5: extrapolate's tables (rope's exact cos/sin of every
# position up to N, seconds of CPU at N = 1e5 before any sample) count in
# its progress, so the first line comes while they are built, not after
# the first round of samples.  Not timed: the first update always prints
# (progress.c), so its percentage is what is asserted.  With 2 samples on
# 1 thread the first round is 1 sample: before, the first line said 50%
# (1 of 2 samples, the tables uncounted); now the first block of 4096
# positions of 16384 is reported at about a quarter of the tables' share
# (16384 x 64 x 60 units of 16384 x 64 x 60 + 2 x 16384 x 128), 23%,
# with the time left; and the run still ends at 100%.
"$ROPELAB" extrapolate --scheme rope --train-len 4096 --eval-len 16384 --samples 2 \
  --threads 1 --measure entropy --progress -o a.csv 2> err.txt || exit 1
tr '\r' '\n' < err.txt | grep . | head -1 | awk '{
  p = $3; sub(/%/, "", p)
  print (p + 0 < 50 ? "first line before the first sample" : "first line after a sample: " $0)
  print (/left/ ? "time left shown" : "no time left") }'
# (an update at 100% may come before the closing line on a slow machine:
# the end is asserted, not how many lines say it)
tr '\r' '\n' < err.txt | tail -1 | grep -q ': 100%' && echo "ends at 100%"
