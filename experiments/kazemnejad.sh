#!/bin/sh
# kazemnejad.sh [OUTDIR]: the shape of Kazemnejad et al. 2023 ("The Impact
# of Positional Encoding on Length Generalization in Transformers",
# NeurIPS, Figure 1): decoder-only models trained on lengths 1..L with no
# positional encoding (nope), T5's relative bias (t5), ALiBi (alibi),
# RoPE (rope) and two absolute encodings (sinusoidal, learned), tested at
# lengths 1..2L, 3 seeds, one 'ropelab train' sweep (--jobs 2, nice -n 10).
# Every model: 4 layers, lr 5e-3, 2500 steps (experiments/copy_all.sh's
# recipe at its base step count; there some schemes get more steps or a
# cosine to 0 to pass 99% on copy, here all get the same).
# Default (small) size: copy, reverse and add at L = 8, 1500 steps, 64
# test examples per length: 6 schemes x 3 tasks x 3 seeds = 54 models.
# FULL=1: the paper's L = 20, 2500 steps, 256 test examples per length.
# RERUN=1: issue 35's rerun at L = 20 with the width the speed buys
# (d-model 128, 4 heads of 32) and 5 seeds, copy, reverse and sort:
# 6 x 3 x 5 = 90 models into experiments/kazemnejad_l20_d128, 4000 steps
# at lr 2e-3 with a cosine to 0: at width 128 the L = 20 recipe (lr 5e-3,
# 2500 steps) left nope at 0.38-0.94 on copy and 0.12-0.15 on reverse in
# distribution, and 2500 steps at 2e-3 left learned at 0.81 on reverse
# (pilots in experiments/kazemnejad_l20/README.md).
# TRAIN_LEN, STEPS, TASKS, SCHEMES, SEEDS, SAMPLES, LAYERS, LR, MIN_LR, D_MODEL,
# HEADS override; SHARDS=N runs the sweep in N parts that survive a stop
# (RERUN's default: 45 parts of 2 models); NICE (default 10) its niceness.
# The seeds are aggregated per scheme, task and length (mean, min, max
# of exact match) by awk into summary.csv; plots/kazemnejad.gp draws the
# mean with the min-max band, a panel per task, the training length
# marked.  Outputs in OUTDIR (default experiments/kazemnejad):
# table.csv (every model's rows), summary.csv, kazemnejad.png, and
# in_dist.csv (mean exact match over 1..L and over L+1..2L per scheme
# and task, mean, min and max over seeds).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/experiments/kazemnejad}
d_model=${D_MODEL:-64} heads=${HEADS:-4}
if [ "${RERUN:-0}" = 1 ]; then
  out=${1:-$top/experiments/kazemnejad_l20_d128}
  L=${TRAIN_LEN:-20} steps=${STEPS:-4000} tasks=${TASKS:-copy,reverse,sort} samples=${SAMPLES:-256}
  LR=${LR:-2e-3} MIN_LR=${MIN_LR:-0} d_model=${D_MODEL:-128} SEEDS=${SEEDS:-1,2,3,4,5} SHARDS=${SHARDS:-45}
elif [ "${FULL:-0}" = 1 ]; then
  L=${TRAIN_LEN:-20} steps=${STEPS:-2500} tasks=${TASKS:-copy,reverse,add} samples=${SAMPLES:-256}
else
  L=${TRAIN_LEN:-8} steps=${STEPS:-1500} tasks=${TASKS:-copy,reverse,add} samples=${SAMPLES:-64}
fi
schemes=${SCHEMES:-nope,t5,alibi,rope,sinusoidal,learned}
layers=${LAYERS:-4} lr=${LR:-5e-3}
# the last step's learning rate: a tenth of the peak, or MIN_LR
min_lr=${MIN_LR:-$(awk -v x="$lr" 'BEGIN { printf "%.17g", x / 10 }')}
shards=${SHARDS:-0} nice=${NICE:-10}
seeds=${SEEDS:-1,2,3}
build=${BUILD:-$top/build-train-openblas}
[ -x "$build/src/ropelab" ] || "$top/experiments/setup.sh" "$build" -Dbuildtype=release -Dtests=false \
  -Dblas=openblas >&2
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
mkdir -p "$out"
# one timed sweep: sweep TIMEFILE [--shard K/N] -o FILE
sweep() {
  tf=$1; shift
  /usr/bin/time -f "%U %S %e" -o "$tf" nice -n "$nice" "$build/src/ropelab" train --scheme "$schemes" \
    --task "$tasks" --seed "$seeds" \
    --train-len "$L" --eval-len $((2 * L)) --steps "$steps" --layers "$layers" --lr "$lr" \
    --min-lr "$min_lr" --threads 1 \
    --d-model "$d_model" --heads "$heads" \
    --eval-samples "$samples" \
    --jobs 2 --quiet "$@"
}
if [ "$shards" -eq 0 ]; then
  sweep "$out/time.txt" -o "$out/table.csv"
else
  # SHARDS=N: the sweep in N parts (--shard K/N), each written atomically
  # to shards/K.csv with its time in shards/K.time and skipped when
  # present, so a run stopped anywhere (a SIGTERM, the end of a session)
  # goes on from there when started again; 'ropelab merge' joins the
  # parts into the bytes the whole sweep writes.  time.txt: the parts'
  # CPU and wall seconds summed.
  mkdir -p "$out/shards"
  k=1
  while [ "$k" -le "$shards" ]; do
    if [ ! -s "$out/shards/$k.csv" ]; then
      echo "kazemnejad: part $k of $shards ($(date -u +%H:%M:%S))" >&2
      sweep "$out/shards/$k.time.tmp" --shard "$k/$shards" -o "$out/shards/$k.csv"
      mv "$out/shards/$k.time.tmp" "$out/shards/$k.time"
    fi
    k=$((k + 1))
  done
  set --
  k=1
  while [ "$k" -le "$shards" ]; do set -- "$@" "$out/shards/$k.csv"; k=$((k + 1)); done
  "$build/src/ropelab" merge -o "$out/table.csv" "$@"
  cat "$out"/shards/*.time | awk '{ u += $1; s += $2; w += $3 } END { print u, s, w }' >"$out/time.txt"
fi
n=$(awk -F, '/^#/ || $1 == "scheme" { next } { k[$1 "," $2 "," $3] = 1 } END { print length(k) }' "$out/table.csv")
read -r user sys wall <"$out/time.txt"
echo "sweep: $n models in $(printf %.0f "$wall") s of wall time ($(echo "$wall $n" | awk '{ printf "%.0f", $1 / $2 }') s per model, 2 at a time);" \
  "$(echo "$user $sys $n" | awk '{ printf "%.0f CPU s, %.1f per model", $1 + $2, ($1 + $2) / $3 }');" \
  "load $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$out/time_summary.txt" >&2
# mean, min and max over seeds of exact match per scheme, task and length
awk -F, '/^#/ { next } $1 == "scheme" { for (i = 1; i <= NF; i++) c[$i] = i; next }
  $c["method"] == "rope" || $c["method"] == "-" {
    k = $c["scheme"] "," $c["task"] "," $c["len"]; e = $c["exact"]
    if (!(k in n)) { lo[k] = e; hi[k] = e; order[++m] = k }
    n[k]++; s[k] += e; if (e < lo[k]) lo[k] = e; if (e > hi[k]) hi[k] = e }
  END { print "scheme,task,len,mean,min,max,seeds"
    for (i = 1; i <= m; i++) { k = order[i]; printf "%s,%.4f,%.4f,%.4f,%d\n", k, s[k] / n[k], lo[k], hi[k], n[k] } }' \
  "$out/table.csv" >"$out/summary.csv"
# per model: mean exact over 1..L and L+1..2L; then mean, min, max over seeds
echo "scheme,task,in_mean,in_min,in_max,out_mean,out_min,out_max" >"$out/in_dist.csv"
awk -F, -v L="$L" '/^#/ { next } $1 == "scheme" { for (i = 1; i <= NF; i++) c[$i] = i; next }
  $c["method"] == "rope" || $c["method"] == "-" {
    m = $c["scheme"] "," $c["task"] SUBSEP $c["seed"]; if ($c["len"] <= L) { a[m] += $c["exact"]; na[m]++ }
    else { b[m] += $c["exact"]; nb[m]++ } }
  END { for (m in a) { split(m, p, SUBSEP); k = p[1]; x = a[m] / na[m]; y = b[m] / nb[m]
      if (!(k in n)) { alo[k] = ahi[k] = x; blo[k] = bhi[k] = y }
      n[k]++; sa[k] += x; sb[k] += y
      if (x < alo[k]) alo[k] = x; if (x > ahi[k]) ahi[k] = x
      if (y < blo[k]) blo[k] = y; if (y > bhi[k]) bhi[k] = y }
    for (k in n) printf "%s,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n", k, sa[k] / n[k], alo[k], ahi[k], sb[k] / n[k], blo[k], bhi[k] }' \
  "$out/table.csv" | sort -t, -k2,2 -k1,1 >>"$out/in_dist.csv"
gnuplot -c "$top/plots/kazemnejad.gp" "$out/summary.csv" "$L" "$out/kazemnejad.png" "" "$out/table.csv"
column -s, -t "$out/in_dist.csv"
echo "figure: $out/kazemnejad.png" >&2
