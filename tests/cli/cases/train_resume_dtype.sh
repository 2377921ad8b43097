# --resume in another dtype is refused, not converted (a resumed run
# would be the bits of neither run): one line naming the checkpoint's
# dtype and the one asked, exit 2, both ways.  The checkpoint records the
# dtype in NAME (format version 3, src/core/train/checkpoint.md), read by
# the independent reader tests/train/ckpt_read.py.
set -e
rd="/usr/bin/python3 $(dirname "$0")/../../train/ckpt_read.py"
T="train --scheme nope --train-len 2 --eval-len 3 --steps 4 --batch 2 --d-model 8 --heads 2
   --layers 1 --eval-samples 5 --no-meta --eval-output /dev/null"
for d in float32 float64; do
  # shellcheck disable=SC2086
  "$ROPELAB" $T --dtype $d --checkpoint $d.ck --stop-after 2 2>/dev/null
  echo "$d.ck: dtype=$($rd get $d.ck NAME dtype)"
done
rc=0
# shellcheck disable=SC2086
"$ROPELAB" $T --dtype float64 --checkpoint float32.ck --resume 2>&1 || rc=$?
echo "exit $rc"
rc=0
# shellcheck disable=SC2086
"$ROPELAB" $T --checkpoint float64.ck --resume --dtype float32 2>&1 || rc=$?
echo "exit $rc"
# the same dtype resumes
# shellcheck disable=SC2086
"$ROPELAB" $T --dtype float32 --checkpoint float32.ck --resume && echo "float32 resumed"
