#!/bin/sh
# bench_extrapolate.sh [SCHEMES]: time and peak memory of
#   ropelab extrapolate --train-len 4096 --eval-len N --dim 128 --samples 100
#       --scheme S --measure retrieval,entropy,shift -o /dev/null
# per scheme (default: every scheme) at N = 32768, and for rope and alibi
# at N = 8192, 16384, 32768 to show that memory does not grow with N
# (keys are streamed in blocks: no n x n matrix, no n x d table of
# contents).  Both CBLAS builds (-Dblas=gsl and -Dblas=openblas, each a
# release build made when missing) for rope, whose key-query products
# go through cblas_dgemm.  Beside each time: the naive cost, the number
# of query-key logits (samples x sum of the lengths, 6 lengths from L/4
# doubling to N) and what a dense softmax matrix of the longest length
# would take (N^2 doubles).  Needs GNU time (Debian package `time`) and
# libopenblas-dev; installs them when missing.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
ROPELAB_EXTRA_NEED="time:/usr/bin/time libopenblas-dev:/usr/include/x86_64-linux-gnu/openblas-pthread/cblas.h" \
  "$top/experiments/setup.sh" build-bench -Dbuildtype=release
export ROPELAB_EXTRA_NEED=
for b in gsl openblas; do
  build=$top/build-bench-$b
  [ -f "$build/build.ninja" ] || meson setup "$build" "$top" -Dbuildtype=release -Dtests=false \
    -Dblas=$b >&2
  ninja -C "$build" src/ropelab >&2
done
schemes=${1:-nope,sinusoidal,learned,xl,t5,tupe,deberta,alibi,rope,rope2d,integer,binary}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
# ropelab sets one OpenBLAS thread per worker itself (bench_blas.sh
# measures the alternative)

run() { # blas scheme N
  /usr/bin/time -v "$top/build-bench-$1/src/ropelab" extrapolate --train-len 4096 --eval-len "$3" \
    --dim 128 --samples 100 --scheme "$2" --measure retrieval,entropy,shift --quiet \
    -o /dev/null 2>"$tmp/time.txt"
  awk -v b="$1" -v s="$2" -v n="$3" -F': ' '
    /Elapsed \(wall clock\)/ { k = split($2, t, ":"); w = 0; for (i = 1; i <= k; i++) w = w * 60 + t[i] }
    /User time/ { u = $2 } /Maximum resident/ { m = $2 }
    END {
      sum = 0; for (x = 1024; x <= n; x *= 2) sum += x
      printf "%-9s %-11s %6d %8.1f %8.1f %10d %12.3g %12.3g\n", b, s, n, w, u, m / 1024, 100 * sum, 8 * n * n / 2^20
    }' "$tmp/time.txt"
}

printf '%-9s %-11s %6s %8s %8s %10s %12s %12s\n' blas scheme N wall_s user_s peak_MiB logits dense_MiB
for s in $(echo "$schemes" | tr , ' '); do
  run gsl "$s" 32768
done
run openblas rope 32768
for n in 8192 16384; do
  run gsl rope $n
  run gsl alibi $n
done
