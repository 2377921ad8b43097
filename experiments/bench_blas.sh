#!/bin/sh
# bench_blas.sh [RUNS]: the CBLAS behind extrapolate's RoPE products,
#   ropelab extrapolate --train-len 4096 --eval-len 32768 --dim 128
#       --samples 100 --scheme rope --measure retrieval,entropy,shift
# with -Dblas=gsl (gslcblas), -Dblas=openblas as it now runs (one
# OpenBLAS thread per sample worker: opened with OPENBLAS_NUM_THREADS=1,
# src/core/base/blas.c)
# and -Dblas=openblas with OPENBLAS_NUM_THREADS = the number of cores
# (OpenBLAS's own default, what ropelab did before), in interleaved
# rounds: CPU time (user + sys), wall time and the 1-minute load average
# beside each run.  Release builds build-bench-gsl and
# build-bench-openblas are made when missing (libopenblas-dev and GNU
# time installed by setup.sh).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-2}
ROPELAB_EXTRA_NEED="time:/usr/bin/time libopenblas-dev:/usr/include/x86_64-linux-gnu/openblas-pthread/cblas.h" \
  "$top/experiments/setup.sh" build-bench -Dbuildtype=release >&2
for b in gsl openblas; do
  build=$top/build-bench-$b
  [ -f "$build/build.ninja" ] || meson setup "$build" "$top" -Dbuildtype=release -Dtests=false \
    -Dblas=$b >&2
  ninja -C "$build" src/ropelab >&2
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cores=$(nproc)
run() { # label blas [env assignment]
  label=$1 b=$2
  shift 2
  env "$@" /usr/bin/time -f "%e %U %S %M" -o "$tmp/t" "$top/build-bench-$b/src/ropelab" extrapolate \
    --train-len 4096 --eval-len 32768 --dim 128 --samples 100 --scheme rope \
    --measure retrieval,entropy,shift --quiet -o /dev/null
  awk -v l="$label" -v load="$(cut -d' ' -f1 /proc/loadavg)" \
    '{ printf "%-28s cpu %7.2f s  wall %7.2f s  peak %4d MiB  load %s\n", l, $2 + $3, $1, $4 / 1024, load }' "$tmp/t"
}
echo "extrapolate --scheme rope, N = 32768, L = 4096, d = 128, 100 samples, $cores cores, $runs rounds"
i=0
while [ "$i" -lt "$runs" ]; do
  run gsl gsl
  run "openblas (1 per worker)" openblas
  run "openblas ($cores per worker)" openblas OPENBLAS_NUM_THREADS="$cores"
  i=$((i + 1))
done
