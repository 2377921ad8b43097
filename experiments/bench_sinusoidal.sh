#!/bin/sh
# bench_sinusoidal.sh [RUNS] [REV]: extrapolate's sinusoidal scheme at the
# experiments/extrapolate/README.md's size (N = 32768, L = 4096, d = 128, 100 samples, retrieval,
# entropy and shift) against the same command built at REV (default
# 96574b5: one exact sin/cos per pair and key, before the per-thread run
# of encodings from rl_angle_sincos_rows), interleaved, CPU and wall time
# with the load average, outputs compared (bench_vs_rev.sh).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
SAME=0 exec sh "$top/experiments/bench_vs_rev.sh" "${2:-96574b5}" "${1:-1}" \
  extrapolate --train-len 4096 --eval-len 32768 --dim 128 --samples 100 --scheme sinusoidal \
  --measure retrieval,entropy,shift --quiet
