#!/bin/sh
# bench_angles.sh [ROPELAB]: time and peak memory of
#   ropelab angles --dim 128 --to N-1 --format pairs -o /dev/null
# for N = 10^5 and 10^6 positions (64 pairs: 1.28e7 and 1.28e8 numbers).
# The rows are streamed, so peak memory should not grow with N.  Uses
# GNU time (Debian package `time`) for the peak resident set; without it,
# the shell's `time` gives the seconds alone.  ROPELAB defaults to
# build-bench/src/ropelab (a release build, made when missing).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -ge 1 ]; then
  ropelab=$1
else
  build=$top/build-bench
  [ -f "$build/build.ninja" ] || meson setup "$build" "$top" -Dbuildtype=release >&2
  ninja -C "$build" src/ropelab >&2
  ropelab=$build/src/ropelab
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

printf '%-10s %10s %10s %10s %14s\n' positions wall_s user_s sys_s peak_rss_kb
for n in 100000 1000000; do
  set -- "$ropelab" angles --dim 128 --to $((n - 1)) --format pairs -o /dev/null
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -v "$@" 2>"$tmp/time.txt"
    awk -v n=$n -F': ' '
      /Elapsed \(wall clock\)/ { k = split($2, t, ":"); w = 0; for (i = 1; i <= k; i++) w = w * 60 + t[i] }
      /User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident/ { m = $2 }
      END { printf "%-10s %10.2f %10.2f %10.2f %14s\n", n, w, u, s, m }' "$tmp/time.txt"
  else
    start=$(date +%s.%N)
    "$@"
    end=$(date +%s.%N)
    awk -v n=$n -v a="$start" -v b="$end" \
      'BEGIN { printf "%-10s %10.2f %10s %10s %14s\n", n, b - a, "-", "-", "-" }'
  fi
done
