#!/bin/sh
# bench_bound.sh [RUNS]: Men et al.'s lower bound of the base
# (`ropelab bound men`, Su's staged grid, d = 128) for the 11 lengths of
# the paper's table, L = 1K..1M, timed with /usr/bin/time: each length
# alone on one thread, then the whole table on every core (the default
# --threads).  Prints the median over RUNS runs (default 3) of wall time,
# CPU time (user + sys) and peak memory (max RSS), and the work counters
# from the metadata (candidates tested, scans, rows scanned).
#
# On a machine shared with other jobs wall time measures the queue, not
# the program: CPU time is the number to compare.  Builds build-bench
# (release) when it is missing.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-3}
build=$top/build-bench

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" "$top" -Dbuildtype=release >&2
fi
ninja -C "$build" src/ropelab >&2
ropelab=$build/src/ropelab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# one timed run: "wall cpu rss_kB" on stdout; the CSV's metadata in $tmp/meta
timed() {
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/t" "$ropelab" bound men --dim 128 "$@" -o "$tmp/out.csv"
  grep '^#' "$tmp/out.csv" >"$tmp/meta"
  awk '{ printf "%s %.3f %s\n", $1, $2 + $3, $4 }' "$tmp/t"
}
meta() { sed -n "s/^# $1=//p" "$tmp/meta"; }

# median of column $1 over the runs in file $2
col() { awk -v c="$1" '{ print $c }' "$2" | median; }

cores=$(nproc 2>/dev/null || echo '?')
echo "ropelab bound men, d = 128, Su's staged grid (5 stages), median of $runs runs, $cores cores, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
printf '%-9s %-7s %9s %9s %9s %11s %7s %12s %14s\n' L threads wall_s cpu_s rss_kB base candidates scans rows_scanned
total_cpu=0
for L in 1024 2048 4096 8192 16384 32768 65536 131072 262144 524288 1048576; do
  : >"$tmp/runs"
  i=0
  while [ "$i" -lt "$runs" ]; do
    timed --len "$L" --threads 1 >>"$tmp/runs"
    i=$((i + 1))
  done
  base=$(sed -n '/^dim/{n;p}' "$tmp/out.csv" | cut -d, -f4)
  cpu=$(col 2 "$tmp/runs")
  total_cpu=$(echo "$total_cpu $cpu" | awk '{ print $1 + $2 }')
  printf '%-9s %-7s %9s %9s %9s %11.6g %7s %12s %14s\n' "$L" 1 "$(col 1 "$tmp/runs")" "$cpu" \
    "$(col 3 "$tmp/runs")" "$base" "$(meta candidates_tested)" "$(meta scans)" "$(meta rows_scanned)"
done
printf '%-9s %-7s %9s %9s\n' "sum" 1 "" "$total_cpu"

: >"$tmp/runs"
i=0
while [ "$i" -lt "$runs" ]; do
  timed --len 1024:1048576:x2 >>"$tmp/runs"
  i=$((i + 1))
done
printf '%-9s %-7s %9s %9s %9s %11s %7s %12s %14s\n' "1K..1M" "$cores" "$(col 1 "$tmp/runs")" \
  "$(col 2 "$tmp/runs")" "$(col 3 "$tmp/runs")" "" "$(meta candidates_tested)" "$(meta scans)" \
  "$(meta rows_scanned)"
