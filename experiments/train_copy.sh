#!/bin/sh
# train_copy.sh [SEEDS]: issue 18's first number on this machine: does
# the copy task at L = 20 reach >= 99% exact match in distribution, and
# at what cost per model?  For each scheme (default rope and nope; set
# SCHEMES) and seed (default 1),
#   ropelab train --scheme S --task copy --train-len 20 --eval-len 40
#       --steps STEPS --seed X --lr LR
#       --eval-samples EVAL_SAMPLES
# (defaults STEPS=1000, LR=3e-3, EVAL_SAMPLES=128; D = 64, H = 4, 2
# layers, batch 32) from
# a release build with -Dblas=openblas, one OpenBLAS thread
# (OPENBLAS_NUM_THREADS, default 1: the machine's two cores are shared,
# so one model per core).  One CSV row per model: training wall and CPU
# time (the run's own clocks, from the table's metadata) with the
# 1-minute load average after it (CPU time is the comparable number on a
# shared machine), tokens/s (positions processed per wall second and per
# CPU second), memory, the mean exact match over the in-distribution
# lengths 1..20, exact match at 20 and at 40, the final training loss.
# The tables and curves stay in experiments/train_copy/ (TRAIN_OUT).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
seeds=${1:-1}
schemes=${SCHEMES:-rope nope}
steps=${STEPS:-1000}
lr=${LR:-3e-3}
samples=${EVAL_SAMPLES:-128}
out=${TRAIN_OUT:-$top/experiments/train_copy}
build=$top/build-train-openblas
ROPELAB_EXTRA_NEED="libopenblas-dev:/usr/include/x86_64-linux-gnu/openblas-pthread/cblas.h" \
  "$top/experiments/setup.sh" "$build" -Dbuildtype=release -Dtests=false -Dblas=openblas >&2
mkdir -p "$out"
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
echo "scheme,seed,steps,wall_s,cpu_s,load1,tokens_per_wall_s,tokens_per_cpu_s,memory_bytes,exact_in_dist,exact_at_20,exact_at_40,final_loss"
for s in $schemes; do
  for x in $seeds; do
    tab=$out/copy-$s-seed$x.csv
    "$build/src/ropelab" train --scheme "$s" --task copy --train-len 20 --eval-len 40 \
      --steps "$steps" --seed "$x" --lr "$lr" --layers 2 --threads 1 \
      --min-lr "$(awk -v x="$lr" 'BEGIN { printf "%.17g", x / 10 }')" --eval-samples "$samples" --quiet -o "$out/copy-$s-seed$x-curve.csv" \
      --eval-output "$tab"
    load=$(cut -d' ' -f1 /proc/loadavg)
    awk -F, -v s="$s" -v x="$x" -v steps="$steps" -v load="$load" '
      /^# / { split(substr($0, 3), kv, "="); meta[kv[1]] = kv[2]; next }
      $1 == "method" { next }
      $1 == "rope" || $1 == "-" {
        if ($3 == 1) { sum += $4; n++ }
        if ($2 == 20) at20 = $4
        if ($2 == 40) at40 = $4
      }
      END {
        tok = meta["train_tokens"]
        printf "%s,%s,%s,%.1f,%.1f,%s,%.0f,%.0f,%s,%.4f,%.4f,%.4f,%.4f\n", s, x, steps,
          meta["train_wall_s"], meta["train_cpu_s"], load, tok / meta["train_wall_s"],
          tok / meta["train_cpu_s"], meta["memory_bytes"], sum / n, at20, at40, meta["final_loss"]
      }' "$tab"
  done
done
