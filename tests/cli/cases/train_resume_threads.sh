# A run on 2 threads in 2 micro-batches (xl, whose relative table has its
# own gradient), stopped at step 4 and resumed to 8, gives the table of
# the run never stopped (cmp; run-time lines aside): the checkpoint keeps
# threads and chunks, which fix the order of the gradient sums.  Resuming
# with another --chunks is refused, naming it.
set -e
o="--scheme xl --task copy --d-model 8 --heads 2 --layers 1 --steps 8 --train-len 3
   --eval-len 4 --symbols 4 --batch 4 --eval-samples 8 --threads 2 --chunks 2
   --peak-seconds 0 --quiet"
# shellcheck disable=SC2086
"$ROPELAB" train $o --checkpoint k1 > t1.csv
# shellcheck disable=SC2086
"$ROPELAB" train $o --checkpoint k2 --stop-after 4 > /dev/null
# shellcheck disable=SC2086
"$ROPELAB" train $o --checkpoint k2 --resume > t2.csv
keep() { grep -v -e '^# command=' -e '^# checkpoint=' -e '^# train_' -e '^# peak' -e '^# resumed' "$1"; }
keep t1.csv > a.csv; keep t2.csv > b.csv
cmp a.csv b.csv && echo "resumed: the table of the run never stopped"
# shellcheck disable=SC2086
"$ROPELAB" train $(echo $o | sed 's/--chunks 2/--chunks 3/') --checkpoint k2 --resume 2>&1 ||
  echo "rc=$?"
