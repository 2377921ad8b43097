#!/bin/sh
# bench_extrapolate_all.sh [RUNS]: the whole of
#   ropelab extrapolate --scheme all --train-len 4096 --eval-len 32768
#       --dim 128 --samples 100 -o FILE
# (issue 21's setting: every scheme, N = 32K, 100 samples), by default
# (logits from their Gaussian law where the logit is affine in the key's
# content) and with --draw-contents (every key's content, the stream
# before), and BEFORE=/path/to/ropelab for another build, interleaved,
# RUNS runs each (default 1): wall time, CPU time (user + sys) and the
# load average before each run; the machine may be shared, so CPU time
# is what a run costs.  Builds build-bench (release) when missing.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-1}
build=$top/build-bench
[ -f "$build/build.ninja" ] || meson setup "$build" "$top" -Dbuildtype=release >&2
ninja -C "$build" src/ropelab >&2
ropelab=$build/src/ropelab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
set -- extrapolate --scheme all --train-len 4096 --eval-len 32768 --dim 128 --samples 100 --quiet
one() { # label binary [extra]
  label=$1 bin=$2
  shift 2
  load=$(cut -d' ' -f1 /proc/loadavg)
  bash -c 'TIMEFORMAT="%3R %3U %3S"; { time "$@" >/dev/null 2>&1; } 2>"$0"' "$tmp/t" "$bin" "$@" -o "$tmp/out.csv"
  awk -v l="$label" -v ld="$load" '{ printf "%-34s %8.1f %8.1f %6s\n", l, $1, $2 + $3, ld }' "$tmp/t"
}
echo "extrapolate --scheme all, L 4096, N 32768, d 128, 100 samples; $(nproc) cores"
printf '%-34s %8s %8s %6s\n' run wall_s cpu_s load
i=0
while [ "$i" -lt "$runs" ]; do
  [ -n "${BEFORE:-}" ] && one "before ($BEFORE)" "$BEFORE" "$@"
  one "ropelab --draw-contents" "$ropelab" "$@" --draw-contents
  one "ropelab (logits' law)" "$ropelab" "$@"
  i=$((i + 1))
done
