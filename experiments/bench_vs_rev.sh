#!/bin/sh
# bench_vs_rev.sh REV RUNS ARGS...: `ropelab ARGS... -o FILE` as built at
# git revision REV (the peer: the code before a speed-up, built by
# build_rev.sh) against this tree (build-bench, release), in RUNS
# interleaved pairs: CPU time (user + sys, the stable figure on a shared
# machine), wall time and the 1-minute load average beside each run,
# then the medians and whether the two outputs are byte-identical but for
# the "# command=" line (with SAME=0, a difference is reported, not an
# error: for changes that move values).  FILE is a .csv in a temporary
# directory.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rev=$1 runs=$2
shift 2
build=$top/build-bench
[ -f "$build/build.ninja" ] || meson setup "$build" "$top" -Dbuildtype=release >&2
ninja -C "$build" src/ropelab >&2
new=$build/src/ropelab
old=$(sh "$top/experiments/build_rev.sh" "$rev")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
one() { # label binary ARGS...
  l=$1 bin=$2
  shift 2
  # bash's time keyword: milliseconds (/usr/bin/time gives hundredths)
  bash -c 'TIMEFORMAT="%3R %3U %3S"; exec 3>&2; { time "$@" >/dev/null 2>&3; } 2>"$0"' \
    "$tmp/t" "$bin" "$@" -o "$tmp/$l.csv"
  awk -v l="$l" -v load="$(cut -d' ' -f1 /proc/loadavg)" \
    '{ printf "%-4s cpu %8.3f s  wall %8.3f s  load %s\n", l, $2 + $3, $1, load }' "$tmp/t"
  awk '{ print $2 + $3 }' "$tmp/t" >>"$tmp/$l.cpu"
}
echo "ropelab $*: $rev (old) against this tree (new), $runs interleaved pairs, $(nproc) cores"
i=0
while [ "$i" -lt "$runs" ]; do
  one old "$old" "$@"
  one new "$new" "$@"
  i=$((i + 1))
done
med() { sort -g "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "median cpu: old $(med "$tmp/old.cpu") s, new $(med "$tmp/new.cpu") s"
if [ "$(grep -v '^# command=' "$tmp/old.csv" | cksum)" = "$(grep -v '^# command=' "$tmp/new.csv" | cksum)" ]; then
  echo "output: byte-identical (but for the command line)"
else
  echo "output: DIFFERS"
  [ "${SAME:-1}" = 0 ] || exit 1
fi
