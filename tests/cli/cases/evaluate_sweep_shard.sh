# evaluate sweeps the schedule's options: --method linear,ntk gives the
# rows of the separate runs one after the other (the sweep's factor column
# dropped) without each run's rope rows (one model scored again: the
# baseline is rope listed among the methods, once, its factor empty);
# its shards merge into the bytes of the whole sweep (the
# '# command=' line aside, which names each run's -o); a list of
# --eval-len is evaluate's own (those lengths, not a sweep).
set -e
"$ROPELAB" train --train-len 2 --eval-len 3 --steps 6 --batch 2 --d-model 8 --heads 2 --layers 1 \
  --eval-samples 5 --checkpoint r.ck --eval-output /dev/null
"$ROPELAB" evaluate r.ck --method linear,ntk --factor 2 --no-meta >sweep.csv
head -n 1 sweep.csv
for m in linear ntk; do
  "$ROPELAB" evaluate r.ck --method $m --factor 2 --no-meta | tail -n +2 | grep -v '^rope,'
done >singles.csv
tail -n +2 sweep.csv | cut -d, -f2- >rows.csv
cmp rows.csv singles.csv && echo "sweep rows = the single runs' ($(wc -l <rows.csv) rows)"
"$ROPELAB" evaluate r.ck --method rope,linear --factor 2 --no-meta | cut -d, -f1,2 | uniq -c |
  sed 's/^ *//'
"$ROPELAB" evaluate r.ck --method rope --no-meta | tail -n +2 >rope1.csv
"$ROPELAB" evaluate r.ck --method rope,linear --factor 2 --no-meta | grep '^,rope,' | cut -d, -f2- |
  cmp - rope1.csv && echo "the baseline's rows = evaluate --method rope's"
"$ROPELAB" evaluate r.ck --method linear,ntk --factor 2 --shard 1/2 -o s1.csv
"$ROPELAB" evaluate r.ck --method linear,ntk --factor 2 --shard 2/2 -o s2.csv
"$ROPELAB" merge s1.csv s2.csv -o merged.csv
"$ROPELAB" evaluate r.ck --method linear,ntk --factor 2 -o whole.csv
grep -v '^# command=' merged.csv >a
grep -v '^# command=' whole.csv >b
cmp a b && echo "shards merged = the whole sweep"
"$ROPELAB" evaluate r.ck --eval-len 2,5 --no-meta | cut -d, -f1-3
