#!/bin/sh
# trained_vs_free.sh: issue 35 item 5, "whether the training-free
# measures predict what the trained models do past L".  For each scheme
# (SCHEMES, default all nine) one model trained with train's defaults
# (copy, L = 20, scored at n = 1..2L, seed SEED, default 1), then:
#   trained   train's table: exact match by length n;
#             extrapolate --checkpoint: per layer and head, the attention
#             entropy (nats) and its maximum ln(keys) on the model's own
#             task inputs at n = 5, 10, ..., 40 (an example of length n
#             is 2n + 1 tokens, the table's tokens column);
#   free      extrapolate --scheme S with random q and k at the model's
#             shape: head dimension D/H = 16, 4 heads, a training length
#             of L's tokens (41) and the same token counts (11..81);
#             t5 with its causal buckets and deberta with 32 buckets over
#             128 positions, as the trainer's; learned and tupe tables of
#             41 rows.  Measured: the fraction of query-key pairs whose
#             positional input never occurred in training (unseen) and
#             the last query's attention entropy.
# Every number is a column of those tables; this script only averages
# them (awk, below) into one row per scheme, on stdout:
#   exact_in     mean exact match over n = 1..20 (in distribution)
#   exact_past   mean over n = 21..40;  exact_2l: at n = 40
#   unseen_2l    free: unseen fraction at 81 tokens (0: nothing new)
#   free_h_l, free_h_2l      free: entropy / ln(keys) at 41, 81 tokens
#   trained_h_l, trained_h_2l  trained: entropy / ln(keys) at n = 20, 40,
#                mean over layers and heads of each head's ratio
#   trained_h_min_2l  the lowest head's ratio at n = 40 (the sharpest head)
# Checkpoints, tables and curves go to TRAIN_OUT (default
# out/trained_vs_free, not committed: about 2 MB each model).  A model
# already in TRAIN_OUT is reused.  The build of train_defaults.sh
# (experiments/train_binary.sh) unless ROPELAB names a binary.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
schemes=${SCHEMES:-nope sinusoidal learned t5 alibi rope xl deberta tupe}
seed=${SEED:-1}
out=${TRAIN_OUT:-$top/out/trained_vs_free}
if [ -z "${ROPELAB:-}" ]; then
  ROPELAB=$(sh "$top/experiments/train_binary.sh")
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
  # the token counts of the lengths, from the checkpoint's table
  toks=$(awk -F, '/^#/ { next } $1 == "scheme" { for (i = 1; i <= NF; i++) c[$i] = i; next }
    !($c["len"] in t) { t[$c["len"]] = $c["tokens"]; o[++k] = $c["len"] }
    END { for (i = 1; i <= k; i++) printf "%s%s", (i > 1 ? "," : ""), t[o[i]] }' "$b-attn.csv")
  tl=$(( 2 * L + 1 )) tn=$(( 2 * N + 1 ))
  case $toks in *"$tl"*"$tn") ;; *) echo "trained_vs_free: $s: tokens '$toks', expected $tl..$tn" >&2; exit 1 ;; esac
  case $s in
    t5) own=--causal ;;
    deberta) own="--position-buckets 32 --max-relative-positions 128" ;;
    *) own= ;;
  esac
  # shellcheck disable=SC2086
  [ -s "$b-free.csv" ] ||
    "$ROPELAB" extrapolate --scheme "$s" $own --train-len $tl --eval-len $tn --lengths "$toks" \
      --dim 16 --heads 4 --seed "$seed" --measure unseen,entropy -o "$b-free.csv"
  awk -F, -v s="$s" -v seed="$seed" -v L=$L -v N=$N -v TL=$tl -v TN=$tn '
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
        si / ni, sp / np, e2, v["unseen", "fraction", TN],
        v["entropy", "nats", TL] / v["entropy", "max", TL],
        v["entropy", "nats", TN] / v["entropy", "max", TN], tr[1] / nh, tr[2] / nh, rmin
    }' "$b-exact.csv" "$b-attn.csv" "$b-free.csv"
done
