#!/bin/sh
# bench_decay_floor.sh [RUNS [REV]]: `ropelab decay --to 999999 --dim 128
# -o FILE.csv` against its floor on this machine, CPU for CPU, in RUNS
# (default 7) interleaved rounds with the load average: the floor is
# bench_decay_floor.c (the 64 x 10^6 square roots the bound needs,
# vectorised, and writing as many bytes as ropelab's CSV with fsync and
# rename); ropelab runs with --threads 1 and with its default threads,
# and (with REV, e.g. ff49335) the same command as built at REV
# (build_rev.sh), whose CSV must be the same bytes.  Prints each run and
# the medians, and ropelab's CPU time over the floor's.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-7} rev=${2:-}
build=$top/build-bench
[ -f "$build/build.ninja" ] || meson setup "$build" "$top" -Dbuildtype=release >&2
ninja -C "$build" src/ropelab >&2
ropelab=$build/src/ropelab
old=
[ -n "$rev" ] && old=$(sh "$top/experiments/build_rev.sh" "$rev")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cc -std=c11 -O3 -march=native -fno-math-errno "$top/experiments/bench_decay_floor.c" -lm -o "$tmp/floor.bin"
set -- decay --to 999999 --dim 128
"$ropelab" "$@" --threads 1 -o "$tmp/r.csv"
bytes=$(wc -c <"$tmp/r.csv")
timed() { # label command...: "wall cpu" appended to $tmp/label (bash's time: milliseconds)
  l=$1
  shift
  bash -c 'TIMEFORMAT="%3R %3U %3S"; exec 3>&2; { time "$@" >/dev/null 2>&3; } 2>"$0"' "$tmp/t" "$@"
  awk '{ printf "%s %.3f\n", $1, $2 + $3 }' "$tmp/t" >>"$tmp/$l"
  awk -v l="$l" -v load="$(cut -d' ' -f1 /proc/loadavg)" \
    '{ printf "%-9s cpu %7.3f s  wall %7.3f s  load %s\n", l, $2 + $3, $1, load }' "$tmp/t"
}
echo "ropelab $* -o FILE.csv ($bytes bytes) against its floor, $runs interleaved rounds, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
while [ "$i" -lt "$runs" ]; do
  timed floor "$tmp/floor.bin" 1000000 "$bytes" "$tmp/f.csv"
  timed threads1 "$ropelab" "$@" --threads 1 -o "$tmp/r1.csv"
  timed default "$ropelab" "$@" -o "$tmp/r2.csv"
  [ -n "$old" ] && timed old1 "$old" "$@" --threads 1 -o "$tmp/o1.csv"
  i=$((i + 1))
done
med() { cut -d' ' -f"$2" <"$tmp/$1" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
f=$(med floor 2)
echo "medians (CPU = user + sys): floor $f s; ropelab --threads 1 $(med threads1 2) s cpu ($(echo "$(med threads1 2) $f" | awk '{ printf "%.2f", $1 / $2 }')x the floor), $(med threads1 1) s wall; default threads $(med default 2) s cpu ($(echo "$(med default 2) $f" | awk '{ printf "%.2f", $1 / $2 }')x), $(med default 1) s wall"
if [ -n "$old" ]; then
  echo "$rev --threads 1: $(med old1 2) s cpu ($(echo "$(med old1 2) $f" | awk '{ printf "%.2f", $1 / $2 }')x the floor)"
  strip() { grep -v '^# command=' "$1"; }
  [ "$(strip "$tmp/o1.csv" | cksum)" = "$(strip "$tmp/r1.csv" | cksum)" ] &&
    echo "CSV: the same bytes as $rev's (but for the command line)" || echo "CSV: DIFFERS from $rev's"
fi
[ "$(grep -v '^# command=' "$tmp/r1.csv" | cksum)" = "$(grep -v '^# command=' "$tmp/r2.csv" | cksum)" ] &&
  echo "CSV: the same bytes with 1 and the default threads"
