# A --method sweep takes each method's options only where the method takes
# them: rope, which takes no --factor, runs without it and shows an empty
# factor cell, so the baseline joins its own comparison (it was refused:
# "--factor does not apply to method 'rope'").  Every point equals the
# separate run of that method alone (rope without --factor), with method
# and factor put in front by sed; --beta-fast (yarn only) likewise.
set -e
"$ROPELAB" decay --method rope,linear,ntk,yarn --factor 8 --train-len 4096 --to 30 --dim 16 \
  --no-meta > sweep.csv
for m in rope linear ntk yarn; do
  if [ $m = rope ]; then f= opt=; else f=8 opt="--factor 8"; fi
  "$ROPELAB" decay --method $m $opt --train-len 4096 --to 30 --dim 16 --no-meta --no-header |
    sed "s/^/$m,$f,/"
done > loop.csv
head -n 1 sweep.csv
tail -n +2 sweep.csv | cmp - loop.csv && echo "rows: same as each method alone"
# a swept option of one method: the others show it empty, and run once
# (rope's rows were written once per --beta-fast value, identical)
"$ROPELAB" freqs --method rope,yarn --beta-fast 16,32 --factor 4 --train-len 64 --dim 4 \
  --no-meta | cut -d, -f1-4
# the metadata says factor=8 for the methods that take it, and not for rope
"$ROPELAB" decay --method rope,linear --factor 8 --to 1 --dim 4 | grep -E '^# (factor|method)'
# linear takes no --ramp: 3 points (linear; yarn code; yarn paper), not 4,
# and the metadata counts the points run
"$ROPELAB" freqs --method linear,yarn --ramp code,paper --factor 4 --train-len 64 --dim 4 \
  > ramp.csv
grep -v '^#' ramp.csv | cut -d, -f1-2 | uniq -c | sed 's/^ *//'
grep '^# sweep_points=' ramp.csv
# the same points in two processes
"$ROPELAB" freqs --method linear,yarn --ramp code,paper --factor 4 --train-len 64 --dim 4 \
  --jobs 2 | grep -v '^#' > ramp2.csv
grep -v '^#' ramp.csv | cmp - ramp2.csv && echo "--jobs 2: same rows"
# shards split the points that run: rope, linear and ntk once, yarn four
# times are 7 points; 4 shards hold floor(7k/4) - floor(7(k-1)/4) = 1, 2,
# 2, 2 of them (4, 8, 8, 8 rows of d/2 = 4 pairs), merge gives the whole
# run back, and the metadata has one schedule line per point run, with an
# empty cell where the method has no --beta-fast
set -- --dim 8 --beta-fast 16,32,64,128 --method rope,yarn,linear,ntk --factor 4 --train-len 4096
"$ROPELAB" freqs "$@" | grep -v '^# command=' > whole.csv
for k in 1 2 3 4; do
  "$ROPELAB" freqs "$@" --shard $k/4 -o part$k.csv
  grep '^# shard=' part$k.csv | cut -d' ' -f2,3
done
"$ROPELAB" merge part1.csv part2.csv part3.csv part4.csv | grep -v '^# command=' |
  cmp - whole.csv && echo "merge: the whole run"
grep -c '^# schedule\[' whole.csv
grep -c '^# schedule\[beta_fast:,method:rope,factor:\]' whole.csv
