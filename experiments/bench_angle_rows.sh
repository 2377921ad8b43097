#!/bin/sh
# bench_angle_rows.sh [N [ROUNDS [ROWS]]]: CPU time per exact (cos, sin) entry on
# one thread, rl_angle_sincos_rows (the table path) against
# rl_angle_sincos2 per entry (the path before), interleaved, with the
# load average (bench_angle_rows.c against build-bench's core library).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build-bench
[ -f "$build/build.ninja" ] || meson setup "$build" "$top" -Dbuildtype=release >&2
ninja -C "$build" src/libropelab-core.a >&2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cc -std=c11 -O2 -I"$top/src" -I"$build" "$top/experiments/bench_angle_rows.c" \
  "$build/src/libropelab-core.a" $(pkg-config --libs gsl) $(pkg-config --libs sleef jansson 2>/dev/null || true) -lquadmath -lm -lpthread -o "$tmp/bench"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
"$tmp/bench" "${1:-100000}" "${2:-3}" "${3:-4096}" 2>/dev/null
