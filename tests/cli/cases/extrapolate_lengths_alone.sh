# extrapolate: a length's numbers do not depend on the other lengths
# measured (nor on their order, --threads or --measure).  n = 20 alone
# (--eval-len 20 --lengths 20) and inside the lists 5,20,40 and 40,20
# (--eval-len 40) must give the same bytes in every row at n = 20 but the
# shift's (the shift is the longest length's: at 20 only when alone), and
# the lists 20 (N = 40 added), 5,20,40 and 40,20 the same rows at n = 40,
# shift included; --factor 2 so that no method's factor follows N.  Each
# contents path: the logits' law (the default), every key's content drawn
# (--draw-contents), --identical, rope in bfloat16 (--precision hf-bf16:
# rotated keys against every length's query as one matrix product), a
# window.  Then entropy alone (--measure entropy) against the default's
# entropy rows.  Counted by hand: --scheme all with 4 methods is 10
# schemes + rope and rope2d x (rope, linear, yarn, log-n) = 18 series;
# at n = 20 each has, per scale (none, logn), retrieval at r = 0 and 4
# and entropy's nats and max: 18 x 2 x 4 = 144 rows; entropy at n = 5,
# 20, 40: 18 x 2 x 2 x 3 = 216 rows.  On main before this
# case (the law drew per key the rank of the Gram matrix of every length's
# coefficients, mixed by its factor) rope's rows differed at n = 20 and 40.
run() {
  "$ROPELAB" extrapolate --scheme all --method rope,linear,yarn,log-n --factor 2 \
    --train-len 10 --dim 16 --samples 6 --seed 3 --distances 0,4 --scale none,logn \
    --no-meta "$@" 2>/dev/null || echo "failed: $*"
}
at() { awk -F, -v n="$1" '$8 == n && $6 != "unseen"'; }
for v in law draw identical bf16 window; do
  case $v in
    law) o= ;; draw) o=--draw-contents ;; identical) o=--identical ;;
    bf16) o="--precision hf-bf16" ;; window) o="--local-window 8 --sink-tokens 2" ;;
  esac
  # shellcheck disable=SC2086
  {
    run $o --eval-len 20 --lengths 20 --threads 1 | at 20 | grep -v ',shift,' > a20
    run $o --eval-len 40 --lengths 5,20,40 --threads 2 > b
    run $o --eval-len 40 --lengths 40,20 --threads 3 > c
    run $o --eval-len 40 --lengths 20 --threads 2 > d
  }
  for f in b c d; do at 20 < $f > $f.20; at 40 < $f > $f.40; done
  same=yes
  for f in b c d; do cmp -s a20 $f.20 || same=no; done
  cmp -s b.40 c.40 && cmp -s b.40 d.40 || same="$same, not at n = 40"
  echo "$v: n = 20 the same alone and in 5,20,40 / 40,20 / 20,40: $same ($(wc -l < a20) rows)"
done
run --eval-len 40 --lengths 5,20,40 | awk -F, '$6 == "entropy"' > e1
run --eval-len 40 --lengths 5,20,40 --measure entropy | awk -F, '$6 == "entropy"' > e2
cmp -s e1 e2 && echo "entropy alone: the same rows ($(wc -l < e1))" || echo "entropy alone: differs"
# Distances likewise: retrieval at r = 37 (n = 1000) alone and inside
# three --distances lists; the rest of a planted key was merged from the
# stretches between every distance's slot, so its last digits followed
# the list (on main: alibi under the window with 37,1,2,3,5,100,999 and
# sinusoidal's contents with 1:999:x2,37 differed in the 16th digit).
# Rows: alibi, sinusoidal, rope/rope x scales none, logn = 6 per run.
for o in "" --draw-contents "--local-window 64 --sink-tokens 4"; do
  same=yes
  # shellcheck disable=SC2086
  for D in 0,37 37,1,2,3,5,100,999 1:999:x2,37; do
    for D1 in 37 "$D"; do
      "$ROPELAB" extrapolate --scheme alibi,sinusoidal,rope --dim 32 --train-len 100 \
        --eval-len 1000 --lengths 1000 --samples 20 --measure retrieval --scale none,logn \
        --distances "$D1" --no-meta $o 2>/dev/null | awk -F, '$9 == 37'
    done > r
    [ "$(sed -n 1,6p r)" = "$(sed -n 7,12p r)" ] && [ "$(wc -l < r)" = 12 ] || same=no
  done
  echo "retrieval r = 37 alone and in 3 distance lists [$o]: $same"
done
