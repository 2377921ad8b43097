#!/bin/sh
# bench_men.sh [RUNS] [REV]: `ropelab bound men` over the whole table
# (d = 128, L = 1K..1M, one thread) against the same command built at
# REV (default 96574b5, before the exact frequencies skipped exp2q), in
# interleaved pairs with CPU time, wall time and load average, and a
# byte comparison of the outputs (bench_vs_rev.sh).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
exec sh "$top/experiments/bench_vs_rev.sh" "${2:-96574b5}" "${1:-3}" \
  bound men --dim 128 --len 1024:1048576:x2 --threads 1
