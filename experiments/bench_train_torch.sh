#!/bin/sh
# bench_train_torch.sh [ROUNDS]: positions per CPU second of the trainer
# against its PyTorch peer (experiments/bench_train_torch.py, Debian's
# python3-torch) on the same model (issue 35 item 2): rope, 4 layers,
# D = 64, 4 heads, batch 32, copy at L = 20 (T = 41 positions a row),
# one thread against one and two against two, in interleaved rounds.
#
#   ropelab train --scheme rope --task copy --train-len 20 --layers 4
#       --batch 32 --chunks 1 --threads N --steps STEPS [--dtype D]
#
# --chunks 1: every step is one batch padded to its longest row, as the
# peer pads every row to T (ropelab's train_tokens counts the positions
# of its padded batches; the peer's B x T); ropelab's CPU time is its
# table's train_cpu_s (the training loop, as the peer's timed steps).
# PyTorch runs with OMP_WAIT_POLICY=passive at two threads (its OpenMP
# threads spin otherwise, which on a loaded 2-core machine costs more CPU
# than they compute).  ropelab --dtype float32 is run where the build has
# it; float64 always (the peer in both).  Beside each row: the 1-minute
# load average after it (the machine is shared: CPU time is the
# comparable number) and, for ropelab, its achieved FLOP/s as a fraction
# of the same build's gemm peak on as many threads, dgemm for float64 and
# sgemm for float32 (the table's train_flop_fraction_of_peak).  The
# machine's `uptime` is printed before and after, as # lines.  BUILD (default build-bench-train) is a
# release build without the tests, made by setup.sh when missing.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-2}
steps=${STEPS:-60}
build=${BUILD:-$top/build-bench-train}
case $build in /*) ;; *) build=$top/$build ;; esac
ROPELAB_EXTRA_NEED="python3-torch:/usr/lib/python3/dist-packages/torch/__init__.py" \
  "$top/experiments/setup.sh" "$build" -Dbuildtype=release -Dtests=false >&2
ninja -C "$build" src/ropelab >&2
py=/usr/bin/python3 # Debian's python3-torch is for the system's python
dtypes=float64
"$build/src/ropelab" train --help 2>/dev/null | grep -q -- '--dtype' && dtypes="float32 float64"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
echo "# before: $(uptime)"
echo "trainer,dtype,threads,steps,positions,cpu_s,positions_per_cpu_s,fraction_of_gemm_peak,load1"
for round in $(seq "$rounds"); do
  for th in 1 2; do
    for dt in $dtypes; do
      dopt=
      [ "$dtypes" = float64 ] || dopt="--dtype $dt"
      # shellcheck disable=SC2086
      "$build/src/ropelab" train --scheme rope --task copy --train-len 20 --eval-len 1 \
        --layers 4 --batch 32 --chunks 1 --threads "$th" --steps "$steps" --eval-samples 1 \
        --peak-seconds 0.3 --quiet $dopt > "$tmp/t.csv"
      awk -v dt="$dt" -v th="$th" -v steps="$steps" -v load="$(cut -d' ' -f1 /proc/loadavg)" '
        /^# / { split(substr($0, 3), kv, "="); meta[kv[1]] = kv[2] }
        END { printf "ropelab,%s,%s,%s,%s,%.3f,%.0f,%.3f,%s\n", dt, th, steps,
                meta["train_tokens"], meta["train_cpu_s"],
                meta["train_tokens"] / meta["train_cpu_s"],
                meta["train_flop_fraction_of_peak"], load }' "$tmp/t.csv"
    done
    for dt in float32 float64; do
      env OMP_WAIT_POLICY=passive "$py" "$top/experiments/bench_train_torch.py" --dtype "$dt" \
        --threads "$th" --steps "$steps" > "$tmp/p.csv"
      awk -F, -v load="$(cut -d' ' -f1 /proc/loadavg)" \
        '{ printf "pytorch,%s,%s,%s,%s,%s,%s,-,%s\n", $1, $2, $3, $4, $5, $7, load }' "$tmp/p.csv"
    done
  done
done
echo "# after: $(uptime)"
