#!/bin/sh
# bench_angle_rows_rev.sh [REV [N [ROUNDS [ROWS]]]]: CPU time per exact
# (cos, sin) entry of rl_angle_sincos_rows on one thread against the same
# function as it was at REV (default ff49335: seeds by binary128 sincosq,
# the range check in a second pass), interleaved, with the load average;
# the two outputs are compared value by value (bench_angle_rows_rev.c, the
# REV's angle_rows.c renamed, against build-bench's core library).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rev=${1:-ff49335}
build=$top/build-bench
[ -f "$build/build.ninja" ] || meson setup "$build" "$top" -Dbuildtype=release >&2
ninja -C "$build" src/libropelab-core.a >&2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
git -C "$top" show "$rev:src/core/base/angle_rows.c" |
  sed 's/rl_angle_sincos_rows(/old_sincos_rows(/' >"$tmp/old_rows.c"
# -O3 as the release build (gcc 12's -O2 does not vectorise the step)
cc -std=c11 -O3 -I"$top/src" -I"$top/src/core/base" -I"$build" -DRL_HAVE_FLOAT128=1 \
  "$top/experiments/bench_angle_rows_rev.c" "$tmp/old_rows.c" "$build/src/libropelab-core.a" \
  $(pkg-config --libs gsl) $(pkg-config --libs sleef jansson 2>/dev/null || true) \
  -lquadmath -lm -lpthread -o "$tmp/bench"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores; old = $rev"
"$tmp/bench" "${2:-100000}" "${3:-3}" "${4:-1024}" 2>/dev/null
