#!/bin/sh
# sweep_slurm.sh [OUTDIR] [N]: the sweep of sweep_parallel.sh as a Slurm job
# array: N tasks (sbatch --array=1-N), task K running --shard K/N, then a
# merge job that starts when every task has succeeded (afterok) and that
# this script waits for (sbatch --wait).  OUTDIR must be on a file system
# the nodes share (here the single node of experiments/slurm_local.sh).
# Ends by comparing the merged file with the sweep run in one process
# (cmp: the same bytes).  OUTDIR defaults to out/sweep_slurm, N to 4.
# Without SLURM_CONF, and when slurm_local.sh's default configuration
# exists, the commands talk to that Slurm.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/out/sweep_slurm}
n=${2:-4}
if [ -z "${SLURM_CONF:-}" ] && [ -f "$top/out/slurm_local/etc/slurm.conf" ]; then
  export SLURM_CONF="$top/out/slurm_local/etc/slurm.conf"
fi

command -v sbatch >/dev/null 2>&1 || {
  echo "sweep_slurm: no sbatch; start a single-node Slurm with experiments/slurm_local.sh" >&2
  exit 1
}
"$top/experiments/setup.sh" "$top/build"
ropelab=$top/build/src/ropelab

# one line: it goes into --wrap
sweep="decay --to 4096 --dim 128 --train-len 4096 --measure bound,similarity --method linear,ntk,yarn --factor 2:8:x2 --base 1e4,5e5"

mkdir -p "$out/shards" "$out/logs" "$out/check"
rm -f "$out"/shards/part*.csv
array=$(sbatch --parsable --job-name=ropelab-sweep --array="1-$n" --ntasks=1 --cpus-per-task=1 \
  --chdir="$out" --output="$out/logs/task-%a.log" \
  --wrap="\"$ropelab\" $sweep --jobs 1 --shard \$SLURM_ARRAY_TASK_ID/$n -o shards/part\$SLURM_ARRAY_TASK_ID.csv")
echo "sweep_slurm: array job $array ($n tasks)" >&2
sbatch --parsable --wait --job-name=ropelab-merge --dependency="afterok:$array" \
  --chdir="$out" --output="$out/logs/merge.log" \
  --wrap="\"$ropelab\" merge shards/part*.csv -o sweep.csv" >/dev/null
echo "sweep_slurm: merged into $out/sweep.csv" >&2

# shellcheck disable=SC2086
(cd "$out/check" && "$ropelab" $sweep -o sweep.csv)
cmp "$out/sweep.csv" "$out/check/sweep.csv"
echo "sweep_slurm: the same bytes as one run" >&2
