#!/bin/sh
# schemes_compare.sh [OUTDIR]: the measured comparison of every scheme
# (ropelab compare, d = 64, len 64) as CSV and as the markdown table of
# experiments/schemes/README.md.  pair_ns is timed, so it varies between machines and runs.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/out/schemes_compare}
"$top/experiments/setup.sh"
rl=$top/build/src/ropelab
mkdir -p "$out"
"$rl" compare --dim 64 --len 64 -o "$out/compare.csv"
"$rl" compare --dim 64 --len 64 --format markdown -o "$out/compare.md"
cat "$out/compare.md" >&2
