# profile --checkpoint F --measure logit, the attention logit a trained
# model computes before the softmax, by layer, head and distance on its
# task's inputs (issue 35 item 5), checked against tests/train/profile_ref.py,
# which reads the checkpoint's bytes alone and runs the whole forward in
# numpy with the rotation in its relative form q_i . R((j - i) theta) k_j:
# every layer's mean and standard error over the same examples within a
# float64 bound stated there (the sum lengths times the unit roundoff
# times the magnitude of the terms summed).  rope also with the rotation
# removed (logit_norot); nope, alibi and t5 whole logits (content plus
# their bias); xl, deberta and tupe whole logits from their papers'
# equations term by term (Dai et al. 2019's four terms of A^rel, He et
# al. 2021's c2c + c2p + p2c over sqrt(3 hd), Ke et al. 2021's untied
# positional correlation over sqrt(2 hd)).  A measure the scheme has not,
# and --measure without --checkpoint, are refused.  The models are
# trained in float64 so that the reference's float64 is the model's
# arithmetic.
command -v python3 >/dev/null 2>&1 || exit 77
py=
for p in python3 /usr/bin/python3; do
  if "$p" -c 'import numpy' 2>/dev/null; then py=$p && break; fi
done
[ -n "$py" ] || exit 77
set -e
here=$(cd "$(dirname "$0")/../../train" && pwd)
T="--dtype float64 --steps 5 --batch 4 --d-model 16 --heads 2 --layers 2 --eval-samples 5 --eval-output /dev/null"
for s in rope nope alibi; do
  # shellcheck disable=SC2086
  "$ROPELAB" train --scheme $s --train-len 4 $T --checkpoint $s.ck
  "$ROPELAB" profile --checkpoint $s.ck --measure logit --samples 7 -o $s.csv
  head -n 1 $s.csv
  PYTHONPATH=$here "$py" "$here/profile_ref.py" logit $s.ck $s.csv
done
# t5 at L = 12: 25 positions, distances past its 16 exact buckets
# shellcheck disable=SC2086
"$ROPELAB" train --scheme t5 --train-len 12 $T --checkpoint t5.ck
"$ROPELAB" profile --checkpoint t5.ck --measure logit -o t5.csv
PYTHONPATH=$here "$py" "$here/profile_ref.py" logit t5.ck t5.csv
# xl and tupe at L = 12 too (xl's R_r and tupe's table over 25 positions);
# deberta at L = 64: 129 positions, distances past its 16 exact ones into
# the log buckets and, at 128, the span's clamp to the table's last row
for s in xl:12 tupe:12 deberta:64; do
  # shellcheck disable=SC2086
  "$ROPELAB" train --scheme "${s%:*}" --train-len "${s#*:}" $T --checkpoint "${s%:*}.ck"
  "$ROPELAB" profile --checkpoint "${s%:*}.ck" --measure logit -o "${s%:*}.csv"
  PYTHONPATH=$here "$py" "$here/profile_ref.py" logit "${s%:*}.ck" "${s%:*}.csv"
done
try() {
  rc=0
  "$@" >/dev/null 2>err || rc=$?
  echo "rc=$rc lines=$(wc -l <err) $(cat err)"
}
try "$ROPELAB" profile --checkpoint rope.ck --measure bias
try "$ROPELAB" profile --checkpoint alibi.ck --measure pair-norms
try "$ROPELAB" profile --checkpoint nope.ck --measure bias
try "$ROPELAB" profile --measure logit
try "$ROPELAB" profile --checkpoint rope.ck --measure norms
