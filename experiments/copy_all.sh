#!/bin/sh
# copy_all.sh: issue 18's first number, "a copy task at L = 20 learned to
# at least 99% exact match in distribution by every scheme, in under 2
# minutes per model on two cores".  For each scheme (SCHEMES, default
# all nine), one model with the trainer's defaults (ropelab help train)
# but for:
#   ropelab train --scheme S --task copy --train-len 20 --eval-len 20
#       --layers 4 --lr 5e-3 --steps K --threads 2 --eval-samples 256 [EXTRA]
# (K = 2500; 3000 for learned, t5 and rope, 3500 for tupe; sinusoidal
# and tupe also --min-lr 0)
# (EXTRA: more options, later ones win, e.g. EXTRA="--steps 1500 --seed 2").
# The recipe is the cheapest of a small search on nope and t5, the two
# slowest learners (copy at L = 20, seed 1; mean exact match over 1..20):
# nope 2 layers 1000 steps 0.30; 3 layers 3000 steps lr 3e-3 0.896, 5000
# steps 0.983; 4 layers 3000 steps 0.993 (223 CPU s); 4 layers lr 5e-3
# 2000 steps 0.984, 2500 steps 0.997 (183 CPU s); t5 3 layers 3000 steps
# 0.969, 4 layers lr 5e-3 2000 steps 0.995.  Without positions a causal
# model first builds one from its averages over BOS, then matches it: a
# block more than an induction head's two.  From a
# release build with -Dblas=openblas, under nice -n 10 and /usr/bin/time.
# One row per model: the mean exact match over the in-distribution
# lengths 1..20 (each 256 test examples), the worst length's, the steps,
# the CPU seconds (user + system, /usr/bin/time: the whole process,
# training and scoring), the wall seconds, and the 1-minute load average
# after it.  The machine is shared: CPU seconds are the comparable cost,
# wall seconds are what a user waited under that load (unloaded, two
# threads give wall ~ CPU / 2).  Tables and curves in TRAIN_OUT
# (default experiments/copy_all/).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
schemes=${SCHEMES:-nope sinusoidal learned t5 alibi rope xl deberta tupe}
extra=${EXTRA:-}
out=${TRAIN_OUT:-$top/experiments/copy_all}
build=$top/build-train-openblas
ROPELAB_EXTRA_NEED="libopenblas-dev:/usr/include/x86_64-linux-gnu/openblas-pthread/cblas.h" \
  "$top/experiments/setup.sh" "$build" -Dbuildtype=release -Dtests=false -Dblas=openblas >&2
mkdir -p "$out"
echo "scheme,exact_in_dist,exact_worst_len,steps,cpu_s,wall_s,load1"
for s in $schemes; do
  # the absolute schemes see their long positions (up to 2L + 1) only in
  # the longest examples: more steps (learned 2500 steps 0.967, 3000
  # 0.999; tupe 2500 0.740, 3500 0.979).  t5 and rope passed at 2500
  # (0.995) until GELU's tanh changed by a few ulp (2026-12-05): then
  # 0.987 and 0.990, at 3000 0.9945 and 0.9941; 2500 steps is that close
  # to the line for them
  case $s in learned | t5 | rope) steps=3000 ;; tupe) steps=3500 ;; *) steps=2500 ;; esac
  # sinusoidal and tupe stalled just short of 99% with the cosine ending
  # at lr/10 (2026-12-05, --chunks 8: sinusoidal 0.981 at 2500 steps,
  # 0.982 at 3000; tupe 0.989 at 3500, 0.9885 at 4000) and pass when it
  # ends at 0 (0.9998, 0.995): their last errors, at the longest
  # lengths, go once the steps stop jittering
  # (lr/10 written out: the defaults are each scheme's since 2026-12-06)
  case $s in sinusoidal | tupe) sched="--min-lr 0" ;; *) sched="--min-lr 5e-4" ;; esac
  tab=$out/copy-$s.csv
  # shellcheck disable=SC2086 # EXTRA and sched are lists of options
  /usr/bin/time -f "%U %S %e" -o "$out/copy-$s.time" nice -n 10 "$build/src/ropelab" train \
    --scheme "$s" --task copy --train-len 20 --eval-len 20 --layers 4 --lr 5e-3 --steps "$steps" \
    --threads 2 --eval-samples 256 \
    --peak-seconds 0 --quiet $sched $extra -o "$out/copy-$s-curve.csv" --eval-output "$tab"
  load=$(cut -d' ' -f1 /proc/loadavg)
  read -r user sys wall <"$out/copy-$s.time"
  awk -F, -v s="$s" -v load="$load" -v cpu="$(echo "$user $sys" | awk '{print $1 + $2}')" \
    -v wall="$wall" '
    /^# steps=/ { split($0, kv, "="); steps = kv[2]; next }
    /^# / || $1 == "method" { next }
    $3 == 1 { sum += $4; n++; if (n == 1 || $4 < worst) worst = $4 }
    END { printf "%s,%.4f,%.4f,%s,%.1f,%.1f,%s\n", s, sum / n, worst, steps, cpu, wall, load }
  ' "$tab"
done
