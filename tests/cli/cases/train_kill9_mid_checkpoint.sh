# kill -9 in the middle of a checkpoint write (ROPELAB_TEST_CKPT_KILL_AFTER
# makes the writer SIGKILL itself after that many bytes of the temporary
# file: deterministic) leaves the previous checkpoint byte for byte as it
# was and readable (independent reader tests/train/ckpt_read.py: length
# and CRC-32 checked), with the 1000-byte temporary file beside it; a
# second --resume then finishes with the table of a run never stopped.
set -e
rd="/usr/bin/python3 $(dirname "$0")/../../train/ckpt_read.py"
T="train --train-len 2 --eval-len 3 --steps 8 --batch 2 --d-model 8 --heads 2 --layers 1
   --eval-samples 5 --no-meta --checkpoint-every 1"
# shellcheck disable=SC2086
"$ROPELAB" $T --checkpoint k.ck --stop-after 4 2>/dev/null
cp k.ck before.ck
rc=0
# shellcheck disable=SC2086
ROPELAB_TEST_CKPT_KILL_AFTER=1000 "$ROPELAB" $T --checkpoint k.ck --resume --eval-output k.csv \
  2>/dev/null || rc=$?
echo "killed: exit $rc"
cmp k.ck before.ck && echo "previous checkpoint intact"
echo "its step $($rd get k.ck STAT step)"
for f in k.ck.tmp-*; do echo "temporary file of $(wc -c <"$f") bytes"; done
test ! -e k.csv && echo "no table"
# shellcheck disable=SC2086
"$ROPELAB" $T --checkpoint k.ck --resume --eval-output k.csv
# shellcheck disable=SC2086
"$ROPELAB" $T --checkpoint u.ck --eval-output u.csv
cmp k.csv u.csv && echo "tables identical to the run never stopped"
