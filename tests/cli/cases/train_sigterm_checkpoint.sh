# SIGTERM during training: the step under way is finished, the checkpoint
# written with that step's state, no table, exit 143 (128 + SIGTERM) and
# one line naming the step; the state equals that of the same number of
# steps run uninterrupted (--stop-after K), section by section, read by
# the independent reader tests/train/ckpt_read.py.  (Background jobs of a
# script ignore SIGINT, so SIGTERM is the signal a test can send.)
set -e
rd="/usr/bin/python3 $(dirname "$0")/../../train/ckpt_read.py"
T="train --train-len 2 --eval-len 3 --steps 1000000 --batch 2 --d-model 8 --heads 2
   --layers 1 --eval-samples 5 --no-meta --checkpoint-every 200"
# shellcheck disable=SC2086
"$ROPELAB" $T --checkpoint int.ck --eval-output int.csv 2>int.err &
pid=$!
i=0
while [ ! -e int.ck ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM $pid
rc=0
wait $pid || rc=$?
echo "exit $rc"
test ! -e int.csv && echo "no table"
k=$($rd get int.ck STAT step)
grep -Eq "^ropelab train: interrupted by SIGTERM after step $k; checkpoint 'int.ck' holds it" int.err &&
  echo "the message names the checkpoint's step"
echo "stderr lines $(wc -l <int.err)"
# shellcheck disable=SC2086
"$ROPELAB" $T --checkpoint ref.ck --stop-after "$k" 2>/dev/null
$rd same int.ck ref.ck NAME CONF ROPE EVAL STAT PARM MOM1 MOM2 && echo "state identical to the steps run uninterrupted"
echo "temporary files left $(ls | grep -c 'tmp-' || true)"
