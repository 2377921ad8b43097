# evaluate CHECKPOINT re-scores the model train wrote: with the method
# train was given (by default, or named again) it reproduces train's
# table byte for byte (the same weights, schedules and test examples);
# under another method (NTK-aware, factor 4) the rope rows stay and the
# method's rows change (another theta changes every logit past position
# 0); a longer --eval-len builds the model for it and repeats train's rows
# for the lengths train scored; a non-rope model is scored as trained.
set -e
T="--train-len 2 --eval-len 3 --steps 30 --batch 4 --d-model 8 --heads 2 --layers 1
   --eval-samples 20 --no-meta"
# shellcheck disable=SC2086
"$ROPELAB" train --scheme rope --method linear --factor 2 $T --checkpoint r.ck --eval-output train.csv
"$ROPELAB" evaluate r.ck --no-meta >e0.csv
"$ROPELAB" evaluate r.ck --method linear --factor 2 --no-meta >e1.csv
cmp train.csv e0.csv && echo "evaluate without schedule options = train's table"
cmp train.csv e1.csv && echo "evaluate --method linear --factor 2 = train's table"
"$ROPELAB" evaluate r.ck --method ntk --factor 4 --no-meta >e2.csv
grep '^rope,' train.csv >a
grep '^rope,' e2.csv >b
cmp a b && echo "rope rows unchanged under --method ntk"
awk -F, 'NR == FNR { if ($1 == "linear") l[$2] = $6; next }
  $1 == "ntk" { print "ntk len " $2 ": loss " ($6 != l[$2] ? "differs" : "same") " from linear" }' train.csv e2.csv
"$ROPELAB" evaluate r.ck --eval-len 5 --no-meta >e5.csv
awk -F, 'NR == 1 || $2 <= 3' e5.csv >e5short.csv
cmp train.csv e5short.csv && echo "--eval-len 5: train's rows for 1..3"
awk -F, 'NR > 1 { n[$1]++ } END { print "--eval-len 5 rows: rope " n["rope"] ", linear " n["linear"] }' e5.csv
# shellcheck disable=SC2086
"$ROPELAB" train --scheme alibi $T --checkpoint a.ck --eval-output atrain.csv
"$ROPELAB" evaluate a.ck --no-meta >aeval.csv
cmp atrain.csv aeval.csv && echo "alibi: evaluate = train's table"
