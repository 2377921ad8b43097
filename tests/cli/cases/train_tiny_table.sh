# A tiny run, twice: the same table and curve bytes (the curve's wall_s
# column aside) for the same seed; one row per method (rope, then the
# method applied at scoring) and test length; in_dist = [len <= L];
# exact and token_acc in [0, 1], loss > 0; the curve's lr is the cosine
# by hand (3 steps, no warmup: lr, (lr + min_lr)/2, min_lr; rope's
# defaults since 2026-12-06, lr 5e-3, min-lr 0: 0.005, 0.0025, 0) and tokens =
# steps x batch x (2L + 1) positions (BOS, x, SEP, x without its last).
set -e
run() {
  "$ROPELAB" train --scheme rope --method linear --factor 2 --train-len 2 --eval-len 3 \
    --steps 3 --batch 2 --d-model 8 --heads 2 --layers 1 --eval-samples 5 --no-meta \
    -o "c$1.csv" --eval-output "t$1.csv"
}
run 1
run 2
cmp t1.csv t2.csv
cut -d, -f1-5 c1.csv >a
cut -d, -f1-5 c2.csv >b
cmp a b
awk -F, 'NR == 1 { print; next }
  { ok = (($2 <= 2) == $3) && $4 >= 0 && $4 <= 1 && $5 >= 0 && $5 <= 1 && $6 > 0 && $7 == 5
    print $1 "," $2 "," $3 "," (ok ? "ok" : "bad") }' t1.csv
awk -F, 'NR == 1 { print; next }
  { printf "%d,%.6g,%d,%d\n", $1, $2, ($3 > 0), ($5 == $1 * 2 * 5) }' c1.csv
