# A checkpoint is trusted field by field no more (issue 33 item 2): the
# independent reader (tests/train/ckpt_read.py, from checkpoint.md alone)
# sets one CONF field or the weights and makes the CRC right again; each
# is refused up front, exit 2, one line naming the file, the field, its
# value and what train's option allows: eval_samples 2^40 (it ran for
# minutes: --eval-samples allows 1e8), eval_len 2^40 (out of memory, exit
# 3: --eval-len allows 1024), max_T 1 and 3 (copy at eval_len 3 reads
# 2 * 3 + 1 = 7 positions; --resume reported "training diverged at step
# 4"), every weight 1e300 (nan in every loss cell, exit 0), lr NaN, a
# first moment of 2 (above the gradient clip 1, AdamW's bound), and a file
# of 2 GB (sparse) whose header claims it: refused after the small sections.
# Options other commands refuse are refused here too: evaluate --config,
# --layer-type (the model's rope schedule is its own), train --scheme t5
# --config.
command -v python3 >/dev/null 2>&1 || exit 77
set -e
rd="python3 $(dirname "$0")/../../train/ckpt_read.py"
T="--train-len 2 --eval-len 3 --steps 8 --batch 2 --d-model 8 --heads 2 --layers 1
   --eval-samples 5 --no-meta"
# half way (a checkpoint to resume), quietly
# shellcheck disable=SC2086
"$ROPELAB" train --scheme t5 $T --checkpoint r.ck --stop-after 4 --quiet
try() {
  rc=0
  "$@" >/dev/null 2>err || rc=$?
  echo "rc=$rc lines=$(wc -l <err) $(sed "s/give [0-9][0-9]*/give N/" err)"
}
$rd set r.ck s.ck CONF eval_samples 1099511627776
try "$ROPELAB" evaluate s.ck
$rd set r.ck l.ck CONF eval_len 1099511627776
try "$ROPELAB" evaluate l.ck
for t in 1 3; do
  $rd set r.ck m$t.ck CONF max_T $t
  try "$ROPELAB" evaluate m$t.ck
  cp m$t.ck res.ck
  # shellcheck disable=SC2086
  try "$ROPELAB" train --scheme t5 $T --checkpoint res.ck --resume
done
$rd set r.ck w.ck PARM all 1e300
try "$ROPELAB" evaluate w.ck
$rd set r.ck n.ck CONF lr nan
try "$ROPELAB" evaluate n.ck
$rd set r.ck g.ck MOM1 3 2
try "$ROPELAB" evaluate g.ck
# the header of r.ck with the length of a 2 GB file
python3 -c '
import struct, sys
b = bytearray(open("r.ck", "rb").read())
struct.pack_into("<Q", b, 16, 2 << 30)
open("big.ck", "wb").write(bytes(b[:-4]))'
truncate -s 2G big.ck
try "$ROPELAB" evaluate big.ck
rm -f big.ck
try "$ROPELAB" evaluate r.ck --config /nonexistent
try "$ROPELAB" evaluate r.ck --layer-type full_attention
# shellcheck disable=SC2086
try "$ROPELAB" train --scheme t5 $T --config /nonexistent
# shellcheck disable=SC2086
try "$ROPELAB" train --scheme t5 $T --layer-type full_attention
