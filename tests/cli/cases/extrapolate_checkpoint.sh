# extrapolate --checkpoint F, the attention of a trained model on its
# task's examples (issue 35 item 5), on a checkpoint whose query and key
# weights are set to 0 by hand (tests/train/ckpt_read.py set, from the
# layout src/core/train/checkpoint.md documents: copy with 10 symbols
# has V = 12, so with D = 16, L = 2 and no position table the token
# embedding is entries 0..191, ln1's weight and bias 192..255, the qkv
# weight 256.. (3D x D = 768 a layer, its first 2D rows = 512 entries
# the query and key), the qkv bias 1792.. (48 a layer, the first 32 the
# query and key)).  Every logit is then 0 and attention uniform: awk
# computes, for each length n (tokens T = 2n + 1), the entropy mean over
# t < T of ln(t + 1) and the weight at distance r, the mean over t >= r
# of 1/(t + 1); every layer and head must match within 1e-14 relative,
# with se 0 (every example gives the same).  The bound, as test_attn.c's:
# the output is the shortest decimal that reads back (no rounding); with
# u = 2^-53 a sum of k positive terms each rounded once is within
# (k + 1) u relative, so at T <= 17 ropelab's entropy (each position's
# t + 1 terms, then the mean over T) is within about (17 + 18) u and
# awk's within 19 u: together 55 u = 6.1e-15 < 1e-14 (2 u measured).
# The default lengths are
# extrapolate's plan with L = 4 and N the checkpoint's eval_len 8:
# 1, 2, 4, 8, so 2 layers x 2 heads x (2 entropy rows + T weights) =
# 4 x (5 + 7 + 11 + 19) = 168 rows.  The trained checkpoint measured
# with 1 and 3 threads gives the same bytes.  Other options are refused,
# and lengths past N.  Trained in float64 (--dtype): the expectations are
# float64 arithmetic (train's default is float32).
command -v python3 >/dev/null 2>&1 || exit 77
set -e
here=$(cd "$(dirname "$0")/../../train" && pwd)
"$ROPELAB" train --dtype float64 --scheme nope --train-len 4 --steps 2 --batch 4 --d-model 16 --heads 2 \
  --layers 2 --eval-samples 5 --eval-output /dev/null --checkpoint t.ck
python3 "$here/ckpt_read.py" set t.ck a.ck PARM 256:768 0
python3 "$here/ckpt_read.py" set a.ck b.ck PARM 1024:1536 0
python3 "$here/ckpt_read.py" set b.ck c.ck PARM 1792:1824 0
python3 "$here/ckpt_read.py" set c.ck z.ck PARM 1840:1872 0
"$ROPELAB" extrapolate --checkpoint z.ck -o z.csv
grep -v '^#' z.csv | head -n 1
grep '^# default_lengths\|^# train_len\|^# eval_len' z.csv || true
awk -F, '
  NR == 1 || /^#/ { next }
  {
    T = $7; rows++; lens[$6] = 1
    if ($4 == "entropy") {
      want = 0
      for (t = 0; t < T; t++) want += log(t + 1) / T
    } else {
      want = 0
      for (t = $8; t < T; t++) want += 1 / (t + 1) / (T - $8)
    }
    err = $9 - want; if (err < 0) err = -err
    if (err > 1e-14 * want) { bad++; print "differs: " $0 " want " want }
    if ($10 != "" && $10 != 0) { bad++; print "se not 0: " $0 }
    if (T != 2 * $6 + 1) { bad++; print "tokens: " $0 }
  }
  END {
    n = 0; for (l in lens) n++
    printf "%d rows, %d lengths, %d differ from uniform attention\n", rows, n, bad
  }' z.csv
# the same bytes for any --threads (the rows read in their order)
"$ROPELAB" extrapolate --checkpoint t.ck --threads 1 --no-meta --lengths 3 >t1.csv
"$ROPELAB" extrapolate --checkpoint t.ck --threads 3 --no-meta --lengths 3 >t3.csv
cmp t1.csv t3.csv && echo "threads 1 and 3: the same bytes"
try() {
  rc=0
  "$@" >/dev/null 2>err || rc=$?
  echo "rc=$rc lines=$(wc -l <err) $(cat err)"
}
try "$ROPELAB" extrapolate --checkpoint z.ck --train-len 4
try "$ROPELAB" extrapolate --checkpoint z.ck --scheme rope
try "$ROPELAB" extrapolate --checkpoint z.ck --lengths 9
try "$ROPELAB" extrapolate --checkpoint z.ck --eval-len 1025
