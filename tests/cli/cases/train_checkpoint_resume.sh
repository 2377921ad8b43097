# Training 8 steps in one go equals training 4 (--stop-after 4, which
# ends the run as an interrupt does), then --resume to 8, bit for bit:
# the same table bytes, and the same checkpoint sections (steps done, RNG
# state, parameters, both AdamW moments, settings) read by an independent
# reader of the documented format (tests/train/ckpt_read.py: struct and
# zlib.crc32, no ropelab code).  Sizes by hand: P = V D + L (4 D + 3 D^2
# + 3 D + D^2 + D + 8 D^2 + 4 D + D) + 2 D parameters (token embedding;
# per block ln1, qkv, attention projection, ln2, fc, fc projection; final
# norm) = 12 * 8 + (32 + 192 + 24 + 64 + 8 + 512 + 32 + 8) + 16 = 984 for
# V = 10 + 2, D = 8, L = 1: PARM, MOM1, MOM2 984 * 8 = 7872 bytes; CONF 27
# fields of 8 bytes = 216; STAT 3 x 8 = 24.
set -e
rd="/usr/bin/python3 $(dirname "$0")/../../train/ckpt_read.py"
T="train --scheme rope --method linear --factor 2 --train-len 2 --eval-len 3 --steps 8
   --batch 2 --d-model 8 --heads 2 --layers 1 --eval-samples 5 --no-meta"
# shellcheck disable=SC2086
"$ROPELAB" $T --checkpoint one.ck --eval-output one.csv
# shellcheck disable=SC2086
"$ROPELAB" $T --checkpoint two.ck --stop-after 4 --eval-output two.csv 2>stop.err
test ! -e two.csv
echo "stopped at step $($rd get two.ck STAT step): $(cat stop.err)"
# shellcheck disable=SC2086
"$ROPELAB" $T --checkpoint two.ck --resume --eval-output two.csv
cmp one.csv two.csv && echo "tables identical"
$rd same one.ck two.ck NAME CONF ROPE EVAL STAT PARM MOM1 MOM2 && echo "checkpoints identical but for provenance"
echo "resumed_at_step $($rd get two.ck PROV resumed_at_step)"
$rd show one.ck
