#!/bin/sh
# check_formatter.sh [COUNT [SEED]]: rl_numfmt's shortest round-trip
# digits (src/core/io/shortest.c, Schubfach) checked against glibc alone
# (snprintf's correctly rounded %e/%g, strtod) on COUNT values (default
# 3*10^8): every check of tests/io/shortest_check.h (round trip, no
# shorter decimal reads back, the closest decimal of that length, the
# "%.{max(15,n)}g" layout, and the text ropelab printed before) on the
# hard cases and then on random bit patterns and random short decimals,
# on both cores.  Prints the counts and the time; exit 1 on any failure.
# Builds build-bench (release) when it is missing.  About 4 us of CPU a
# value: 3*10^8 took 65 minutes of CPU here (0 failures).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
count=${1:-300000000}
seed=${2:-20240601}
build=$top/build-bench
if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" "$top" -Dbuildtype=release >&2
fi
ninja -C "$build" tests/io/check_shortest >&2
threads=$(nproc 2>/dev/null || echo 1)
[ "$threads" -gt 2 ] && threads=2
echo "check_formatter: $count values + hard cases, seed $seed, $threads threads"
start=$(date +%s)
status=0
"$build/tests/io/check_shortest" "$count" "$seed" "$threads" || status=$?
end=$(date +%s)
echo "wall seconds $((end - start))"
exit "$status"
