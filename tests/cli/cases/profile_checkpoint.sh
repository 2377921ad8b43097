# profile --checkpoint F, the measures of a trained model (issue 35 item
# 5), checked against tests/train/profile_ref.py, which recomputes them
# from the checkpoint's bytes alone: t5's learned bias per head and
# distance 0..80 (copy at eval_len 40 reads 81 positions: T5's exact
# buckets 0..15 and its logarithmic ones past them) equal to the
# checkpoint's bucket biases bit for bit; alibi's row at distance 10 of
# head 0 is -slope_0 * 10 = -10/16 = -0.625 (Press et al. 2022: with n = 2
# heads the slopes are 2^(-8k/n), k = 1, 2: 1/16 and 1/256);
# rope's layer-0 query and key norm per head and rotation pair over the
# same 9 examples within 1e-12 relative.  Other options are refused; a
# scheme without a learned bias or rotation (nope) gets --measure logit's
# table by default (profile_checkpoint_logit checks its values).  The models are trained in
# float64 (--dtype; float32 is train's default): the reference recomputes
# in float64, and the profile runs in the checkpoint's dtype.
command -v python3 >/dev/null 2>&1 || exit 77
set -e
here=$(cd "$(dirname "$0")/../../train" && pwd)
T="--dtype float64 --steps 5 --batch 4 --d-model 16 --heads 2 --layers 2 --eval-samples 5 --eval-output /dev/null"
# shellcheck disable=SC2086
"$ROPELAB" train --scheme t5 --train-len 20 $T --checkpoint t5.ck
"$ROPELAB" profile --checkpoint t5.ck -o t5.csv
PYTHONPATH=$here python3 "$here/profile_ref.py" t5 t5.ck t5.csv
# shellcheck disable=SC2086
"$ROPELAB" train --scheme alibi --train-len 5 $T --checkpoint a.ck
"$ROPELAB" profile --checkpoint a.ck --no-meta | grep '^0,10,'
# shellcheck disable=SC2086
"$ROPELAB" train --scheme rope --train-len 4 $T --checkpoint r.ck
"$ROPELAB" profile --checkpoint r.ck --samples 9 -o r.csv
head -n 1 r.csv
PYTHONPATH=$here python3 "$here/profile_ref.py" rope r.ck r.csv
try() {
  rc=0
  "$@" >/dev/null 2>err || rc=$?
  echo "rc=$rc lines=$(wc -l <err) $(cat err)"
}
try "$ROPELAB" profile --checkpoint r.ck --scheme t5
# shellcheck disable=SC2086
"$ROPELAB" train --scheme nope --train-len 4 $T --checkpoint n.ck
"$ROPELAB" profile --checkpoint n.ck | head -n 1
