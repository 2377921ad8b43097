#!/bin/sh
# trained_vs_free.sh: issue 35 item 5, "whether the training-free
# measures predict what the trained models do past L".  For each scheme
# (SCHEMES, default all nine) one model trained with train's defaults
# (copy, L = 20, scored at 1..2L, seed SEED, default 1), then:
#   trained   train's table: exact match by length n = 1..40;
#             extrapolate --checkpoint: per layer and head, the attention
#             entropy (nats) and its maximum ln(keys) on the model's own
#             task inputs at n = 5, 10, ..., 40;
#   free      extrapolate --scheme S with random q and k at the model's
#             shape (head dimension D/H = 16, 4 heads, L = 20, N = 40,
#             learned and tupe tables of L rows): the fraction of
#             query-key pairs whose positional input was never seen in
#             training (unseen) and the last query's attention entropy.
# Every number is a column of those tables; this script only averages
# them (awk, below) into one row per scheme, summary.csv:
#   exact_in     mean exact match over n = 1..20 (in distribution)
#   exact_past   mean over n = 21..40;  exact_2l: at n = 40
#   unseen_2l    free: unseen fraction at n = 40 (0: nothing new past L)
#   free_h_l, free_h_2l      free: entropy / ln(keys) at n = 20 and 40
#   trained_h_l, trained_h_2l  trained: entropy / ln(keys) at n = 20, 40,
#                mean over layers and heads of each head's ratio
#   trained_h_min_2l  the lowest head's ratio at n = 40 (the sharpest head)
# Checkpoints, tables and curves go to TRAIN_OUT (default
# out/trained_vs_free, not committed: about 2 MB); summary.csv to stdout.
# A model already in TRAIN_OUT is reused.  Build as train_defaults.sh
# (release, OpenBLAS) unless ROPELAB names a binary.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
schemes=${SCHEMES:-nope sinusoidal learned t5 alibi rope xl deberta tupe}
seed=${SEED:-1}
out=${TRAIN_OUT:-$top/out/trained_vs_free}
if [ -z "${ROPELAB:-}" ]; then
  build=$top/build-train-defaults
  ROPELAB_EXTRA_NEED="libopenblas-dev:/usr/include/x86_64-linux-gnu/openblas-pthread/cblas.h" \
    "$top/experiments/setup.sh" "$build" -Dtests=false >&2
  ROPELAB=$build/src/ropelab
fi
mkdir -p "$out"
L=20 N=40 lens=5,10,15,20,25,30,35,40
echo "scheme,seed,steps,exact_in,exact_past,exact_2l,unseen_2l,free_h_l,free_h_2l,trained_h_l,trained_h_2l,trained_h_min_2l"
for s in $schemes; do
  b=$out/$s-$seed
  if ! [ -s "$b.ck" ] || ! [ -s "$b-exact.csv" ]; then
    echo "trained_vs_free: training $s seed $seed" >&2
    "$ROPELAB" train --scheme "$s" --seed "$seed" --quiet --checkpoint "$b.ck" \
      -o "$b-curve.csv" --eval-output "$b-exact.csv"
  fi
  [ -s "$b-attn.csv" ] ||
    "$ROPELAB" extrapolate --checkpoint "$b.ck" --lengths "$lens" -o "$b-attn.csv"
  [ -s "$b-free.csv" ] ||
    "$ROPELAB" extrapolate --scheme "$s" --train-len $L --eval-len $N --lengths "$lens" \
      --dim 16 --heads 4 --seed "$seed" --measure unseen,entropy -o "$b-free.csv"
  awk -F, -v s="$s" -v seed="$seed" -v L=$L -v N=$N '
    FNR == 1 { f++ }
    /^# / { if (f == 1) { split(substr($0, 3), kv, "="); meta[kv[1]] = kv[2] } next }
    /^(method|scheme),/ { for (i = 1; i <= NF; i++) col[f, $i] = i; next }
    f == 1 { n = $col[1, "len"]; x = $col[1, "exact"]
             if (n <= L) { si += x; ni++ } else { sp += x; np++ }
             if (n == N) e2 = x; next }
    f == 2 { if ($col[2, "measure"] != "entropy") next
             k = $col[2, "layer"] "," $col[2, "head"] "," $col[2, "len"]
             t[k, $col[2, "stat"]] = $col[2, "value"]; heads[$col[2, "layer"] "," $col[2, "head"]] = 1
             next }
    f == 3 { v[$col[3, "measure"], $col[3, "stat"], $col[3, "len"]] = $col[3, "value"] }
    END {
      for (h in heads) {
        for (j = 1; j <= 2; j++) {
          n = j == 1 ? L : N; r = t[h "," n, "nats"] / t[h "," n, "max"]
          tr[j] += r; if (j == 2 && (!nh || r < rmin)) rmin = r
        }
        nh++
      }
      printf "%s,%s,%s,%.4f,%.4f,%.4f,%.4f,%.3f,%.3f,%.3f,%.3f,%.3f\n", s, seed, meta["steps"],
        si / ni, sp / np, e2, v["unseen", "fraction", N],
        v["entropy", "nats", L] / v["entropy", "max", L],
        v["entropy", "nats", N] / v["entropy", "max", N], tr[1] / nh, tr[2] / nh, rmin
    }' "$b-exact.csv" "$b-attn.csv" "$b-free.csv"
done
