#!/bin/sh
# bench_precision_angle.sh [RUNS] [REV]: the precision envelope of
# Hugging Face's fp32 pipeline over 10^6 + 1 positions,
#   ropelab precision --precision hf-fp32 --to 1000000
# against the same command built at REV (default 96574b5, before atan2 was
# skipped where it cannot raise the running maximum), interleaved, CPU and
# wall time with the load average, outputs compared byte for byte
# (bench_vs_rev.sh).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
exec sh "$top/experiments/bench_vs_rev.sh" "${2:-96574b5}" "${1:-3}" \
  precision --precision hf-fp32 --to 1000000
