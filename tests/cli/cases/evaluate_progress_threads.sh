# evaluate's scoring (issue 35 item 4): with --progress, a line per
# scoring pass and length with the time left ('ETA'), ending at 100% and a
# newline, on stderr only (stdout the same table as without); --threads
# 1, 2 and 3 give the same bytes (a forward pass's chunks are the same on
# any thread); --no-baseline leaves out exactly the rope rows (train's
# table holds them); the metadata names the original context YaRN was
# built with: schedule_train_len = the positions of copy's longest
# training example, 2 * 4 + 1 = 9 (issue 36 item 8: train_len = 4 counts
# symbols).  train shows its scoring the same way.
set -e
T="--train-len 4 --eval-len 6 --steps 6 --batch 2 --d-model 8 --heads 2 --layers 1
   --eval-samples 9"
# shellcheck disable=SC2086
"$ROPELAB" train $T --method yarn --factor 2 --checkpoint r.ck --eval-output t.csv --progress 2>terr
tr '\r' '\n' <terr | grep -c 'scoring yarn len 6 (100%)' | sed 's/^/train: final scoring lines: /'
"$ROPELAB" evaluate r.ck --no-meta >plain.csv
"$ROPELAB" evaluate r.ck --no-meta --progress >prog.csv 2>err
cmp plain.csv prog.csv && echo "--progress: the same table"
tr '\r' '\n' <err | grep -c 'ropelab evaluate: scoring rope len [1-6] ([ 0-9]*%), [0-9]* s, ETA [0-9]* s' |
  awk '{ print "rope progress lines: " ($1 >= 1 ? "some" : "none") }'
tr '\r' '\n' <err | grep -c 'scoring yarn len 6 (100%)' | sed 's/^/final lines: /'
tail -c 1 err | od -An -c | tr -d ' '
for t in 1 2 3; do "$ROPELAB" evaluate r.ck --no-meta --threads $t >t$t.csv; done
cmp t1.csv t2.csv && cmp t1.csv t3.csv && echo "--threads 1, 2, 3: the same bytes"
"$ROPELAB" evaluate r.ck --no-meta --no-baseline >nb.csv
grep -v '^rope,' plain.csv | cmp - nb.csv && echo "--no-baseline: the rows less rope's ($(grep -c '^rope,' plain.csv))"
"$ROPELAB" evaluate r.ck | grep -E '^# (train_len|schedule_train_len|schedule_seq_len)='
grep -E '^# (train_len|schedule_train_len)=' t.csv
"$ROPELAB" evaluate r.ck --threads 0 2>&1 >/dev/null || true
