# evaluate_sweep_progress.sh: a swept evaluate with --progress shows each
# point's own scoring progress with the time left ('ETA') on stderr while
# the point runs (it printed only the sweep's per-point percentage, after
# a point ended, so a long first point was silent); stdout is the same
# table as without --progress.  Expected: one scoring line reaching 100%
# per point (2 points: linear, ntk), counted by hand.
set -e
"$ROPELAB" train --scheme rope --train-len 4 --steps 5 --batch 4 --d-model 16 --heads 2 \
  --layers 2 --eval-samples 5 --checkpoint m.ck >/dev/null
"$ROPELAB" evaluate m.ck --eval-len 6 --method linear,ntk --factor 2 >plain.csv
"$ROPELAB" evaluate m.ck --eval-len 6 --method linear,ntk --factor 2 --progress >prog.csv 2>err
grep -v '^# command=' plain.csv >a; grep -v '^# command=' prog.csv >b
cmp a b && echo "--progress: the same table"
for m in linear ntk; do
  tr '\r' '\n' <err | grep -c "^ropelab evaluate: scoring $m len 6 (100%), [0-9]* s, ETA [0-9]* s" |
    sed "s/^/$m: final scoring lines: /"
done
tr '\r' '\n' <err | grep -c '^ropelab evaluate: 100%$' | sed 's/^/sweep end lines: /'
