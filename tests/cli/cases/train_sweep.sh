# train sweeps as every table command: one model per point (scheme,
# seed, ...), the length tables joined with the swept values in front;
# every point's rows equal its single run's table (same seed, same
# threads: training is deterministic), --jobs 2 writes the same bytes,
# shards merge into the whole run, and one --checkpoint for several
# models is refused.  It refused every list before.
set -e
T="--train-len 2 --eval-len 3 --steps 20 --batch 4 --d-model 8 --heads 2 --layers 1
   --eval-samples 10"
# shellcheck disable=SC2086
"$ROPELAB" train --scheme rope,nope --seed 1,2 $T --no-meta > sweep.csv
head -n 1 sweep.csv
for s in rope nope; do
  for k in 1 2; do
    # shellcheck disable=SC2086
    "$ROPELAB" train --scheme $s --seed $k $T --no-meta --no-header | sed "s/^/$s,$k,/"
  done
done > loop.csv
tail -n +2 sweep.csv | cmp - loop.csv && echo "rows: same as each model trained alone"
# shellcheck disable=SC2086
"$ROPELAB" train --scheme rope,nope --seed 1,2 $T --no-meta --jobs 2 | cmp - sweep.csv &&
  echo "--jobs 2: same bytes"
# shellcheck disable=SC2086
"$ROPELAB" train --scheme rope,nope --seed 1,2 $T | grep -v '^# command=' > whole.csv
for k in 1 2 3; do
  # shellcheck disable=SC2086
  "$ROPELAB" train --scheme rope,nope --seed 1,2 $T --shard $k/3 -o part$k.csv
done
"$ROPELAB" merge part1.csv part2.csv part3.csv | grep -v '^# command=' | cmp - whole.csv &&
  echo "merge: the whole run"
# the per-model metadata: rope's schedule once (the seeds share it), and
# none for nope
grep '^# schedule' whole.csv
# shellcheck disable=SC2086
"$ROPELAB" train --scheme rope,nope $T --checkpoint m.ck 2>&1 || echo "exit $?"
