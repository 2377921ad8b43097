#!/bin/sh
# sweep_parallel.sh [OUTDIR] [N]: a sweep split into N shards (--shard K/N)
# run by GNU parallel (Debian's `parallel`, installed if missing), joined
# by `ropelab merge` into OUTDIR/sweep.csv, and checked against the same
# sweep run in one process: the two files must be the same bytes (cmp).
# The sweep: RoFormer's decay bound and B_r of three methods x three
# factors x two bases (18 points, 4097 distances each), d = 128, L = 4096.
# OUTDIR defaults to out/sweep_parallel, N to 4.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/out/sweep_parallel}
n=${2:-4}

ROPELAB_EXTRA_NEED="parallel:parallel" "$top/experiments/setup.sh" "$top/build"
ropelab=$top/build/src/ropelab

sweep="decay --to 4096 --dim 128 --train-len 4096 --measure bound,similarity
       --method linear,ntk,yarn --factor 2:8:x2 --base 1e4,5e5"

mkdir -p "$out/shards" "$out/check"
rm -f "$out"/shards/part*.csv
cd "$out"
# one shard per parallel job; --jobs 1: parallel does the spreading.
# shellcheck disable=SC2086
seq 1 "$n" | parallel --will-cite --halt now,fail=1 \
  "$ropelab" $sweep --jobs 1 --shard '{}'/"$n" -o shards/part'{}'.csv
"$ropelab" merge shards/part*.csv -o sweep.csv

# the same sweep in one process, written under the same -o name
# shellcheck disable=SC2086
(cd check && "$ropelab" $sweep -o sweep.csv)
cmp sweep.csv check/sweep.csv
echo "sweep_parallel: $n shards merged into $out/sweep.csv ($(grep -vc '^#' sweep.csv) lines)," \
  "the same bytes as one run" >&2
