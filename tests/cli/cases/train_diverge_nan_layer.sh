# A NaN planted in the weights (test hooks ROPELAB_TEST_NAN_AT_STEP and
# ROPELAB_TEST_NAN_PARAM) stops the run at that step with loss nan and
# names the first tensor holding a non-finite value in forward order;
# exit 3; the last checkpoint (written every step) keeps the step before,
# readable by the independent reader.  Indices by the layout of
# src/core/train/model.c for nope, V = 12, D = 8, L = 2: the last
# parameter is the final LayerNorm's bias (every block before it stays
# finite); index V D + 2 L D + 3 D^2 = 96 + 32 + 192 = 320 is the first
# entry of layer 1's qkv weight (after the token embedding, both blocks'
# ln1 weight and bias, and layer 0's qkv weight).
rd="/usr/bin/python3 $(dirname "$0")/../../train/ckpt_read.py"
T="train --scheme nope --train-len 2 --steps 6 --batch 2 --d-model 8 --heads 2 --layers 2
   --eval-samples 5 --checkpoint n.ck --checkpoint-every 1"
rc=0
# shellcheck disable=SC2086
ROPELAB_TEST_NAN_AT_STEP=3 "$ROPELAB" $T 2>err || rc=$?
echo "exit $rc"
cat err
echo "checkpoint step $($rd get n.ck STAT step)"
rc=0
# shellcheck disable=SC2086
ROPELAB_TEST_NAN_AT_STEP=2 ROPELAB_TEST_NAN_PARAM=320 "$ROPELAB" $T 2>err || rc=$?
echo "exit $rc"
cat err
echo "checkpoint step $($rd get n.ck STAT step)"
