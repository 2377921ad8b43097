#!/bin/sh
# bench_angles_rows.sh [RUNS] [REV]: the whole `angles` command on one
# thread, 10^5 positions x 64 pairs (--format pairs, 1.3e7 values),
# against the same command built at REV (default 96574b5: exact angles
# per entry, before rl_angle_sincos_rows), interleaved, CPU and wall time
# with the load average (bench_vs_rev.sh; the outputs differ in ~2e-4 of
# the values by one ulp, where the old path was not correctly rounded).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
SAME=0 exec sh "$top/experiments/bench_vs_rev.sh" "${2:-96574b5}" "${1:-3}" \
  angles --dim 128 --to 99999 --format pairs --threads 1
