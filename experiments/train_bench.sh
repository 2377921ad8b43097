#!/bin/sh
# train_bench.sh: issue 18's numbers for the trainer on this machine:
# per scheme, does copy at L = 20 reach >= 99% exact match over the
# in-distribution lengths 1..20, and at what cost?  Each model:
#   ropelab train --scheme S --task copy --train-len 20 --eval-len 20
#       --steps STEPS --lr LR --batch BATCH --symbols SYMBOLS
#       --threads THREADS --chunks CHUNKS --seed SEED --eval-samples 128
# (defaults below; D = 64, H = 4, 2 layers) from a release build with
# -Dblas=openblas.  One CSV row per model from the table's metadata (the
# run's own clocks): training wall and CPU time with the 1-minute load
# average after it (the machine's 2 cores are shared: CPU time is the
# comparable number, wall time what a user waits), tokens/s (positions of
# the padded batches per wall second), achieved FLOP/s (matrix products
# and attention of the positions computed, rl_train_flops) beside the
# same build's dgemm peak measured right after training on as many
# threads (n = 256, 0.3 s), memory, mean exact match over lengths 1..20,
# exact match at 20, the final loss.  PROFILE=1 adds a perf profile of a
# 150-step rope run (where the time goes, by function).  COMPARE=1
# adds, in two interleaved rounds, a 150-step rope run with --threads
# 1 and 2 (one OpenBLAS thread in each unless OPENBLAS_NUM_THREADS is
# set: src/core/base/blas.c), each with --chunks 1 and 4: wall and CPU
# time.  Tables and curves in TRAIN_OUT (experiments/train_bench/).  One
# invocation at a time: they share the build directory.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
schemes=${SCHEMES:-nope sinusoidal learned t5 alibi rope xl deberta tupe}
steps=${STEPS:-1500}
lr=${LR:-3e-3}
batch=${BATCH:-32}
symbols=${SYMBOLS:-50}
threads=${THREADS:-2}
chunks=${CHUNKS:-4}
seed=${SEED:-1}
out=${TRAIN_OUT:-$top/experiments/train_bench}
build=$top/build-train-openblas
ROPELAB_EXTRA_NEED="libopenblas-dev:/usr/include/x86_64-linux-gnu/openblas-pthread/cblas.h" \
  "$top/experiments/setup.sh" "$build" -Dbuildtype=release -Dtests=false -Dblas=openblas >&2
mkdir -p "$out"
echo "scheme,steps,lr,batch,symbols,threads,chunks,seed,wall_s,cpu_s,load1,tokens_per_s,flop_per_s,peak_flop_per_s,fraction_of_peak,memory_bytes,exact_in_dist,exact_at_20,final_loss"
for s in $schemes; do
  tab=$out/copy-$s.csv
  "$build/src/ropelab" train --scheme "$s" --task copy --train-len 20 --eval-len 20 \
    --steps "$steps" --lr "$lr" --batch "$batch" --symbols "$symbols" --threads "$threads" \
    --chunks "$chunks" --seed "$seed" --eval-samples 128 --quiet -o "$out/copy-$s-curve.csv" \
    --eval-output "$tab"
  load=$(cut -d' ' -f1 /proc/loadavg)
  awk -F, -v s="$s" -v load="$load" -v cfg="$steps,$lr,$batch,$symbols,$threads,$chunks,$seed" '
    /^# / { split(substr($0, 3), kv, "="); meta[kv[1]] = kv[2]; next }
    $1 == "method" { next }
    $1 == "rope" || $1 == "-" { if ($3 == 1) { sum += $4; n++ } if ($2 == 20) at20 = $4 }
    END {
      printf "%s,%s,%.1f,%.1f,%s,%.0f,%.3g,%.3g,%.3f,%s,%.4f,%.4f,%.4g\n", s, cfg,
        meta["train_wall_s"], meta["train_cpu_s"], load, meta["train_tokens_per_s"],
        meta["train_flop_per_s"], meta["peak_dgemm_flop_per_s"],
        meta["train_flop_fraction_of_peak"], meta["memory_bytes"], sum / n, at20,
        meta["final_loss"]
    }' "$tab"
done
if [ "${PROFILE:-0}" = 1 ]; then
  command -v perf >/dev/null || { echo "train_bench: perf not found" >&2; exit 3; }
  pdata=$(mktemp)
  perf record -o "$pdata" -q "$build/src/ropelab" train --scheme rope --task copy \
    --train-len 20 --eval-len 1 --steps 150 --batch "$batch" --symbols "$symbols" \
    --threads "$threads" --chunks "$chunks" --eval-samples 1 --peak-seconds 0 --quiet \
    >/dev/null 2>&1
  echo "# perf: share of samples by function, rope, 150 steps"
  perf report -i "$pdata" --no-children --stdio --sort symbol 2>/dev/null |
    awk '/^ +[0-9.]+%/ && n < 15 { print "# " $0; n++ }'
  rm -f "$pdata"
fi
if [ "${COMPARE:-0}" = 1 ]; then
  echo "# compare: rope, 150 steps, batch $batch: threads,chunks,wall_s,cpu_s,load1"
  for round in 1 2; do
    for tc in "1 1" "1 4" "2 1" "2 4"; do
      set -- $tc
      "$build/src/ropelab" train --scheme rope --task copy --train-len 20 --eval-len 1 \
        --steps 150 --batch "$batch" --symbols "$symbols" --threads "$1" --chunks "$2" \
        --eval-samples 1 --peak-seconds 0 --quiet |
        awk -F, -v t="$1" -v c="$2" -v load="$(cut -d' ' -f1 /proc/loadavg)" '
          /^# train_wall_s=/ { split($0, a, "="); w = a[2] }
          /^# train_cpu_s=/ { split($0, a, "="); u = a[2] }
          END { printf "# %s,%s,%.2f,%.2f,%s\n", t, c, w, u, load }'
    done
  done
fi
