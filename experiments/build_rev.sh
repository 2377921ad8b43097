#!/bin/sh
# build_rev.sh REV [DIR]: build ropelab as it was at git revision REV
# (release, no tests) into DIR (default /tmp/ropelab-REV) and print the
# binary's path; the benchmarks that compare a speed-up against the code
# before it (bench_men.sh, bench_precision.sh) use it as their peer.
# Reuses DIR when it already holds that build.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rev=$(git -C "$top" rev-parse --short "$1")
dir=${2:-/tmp/ropelab-$rev}
if [ ! -x "$dir/build/src/ropelab" ]; then
  rm -rf "$dir"
  mkdir -p "$dir/src"
  git -C "$top" archive "$rev" | tar -x -C "$dir/src"
  meson setup "$dir/build" "$dir/src" -Dbuildtype=release -Dtests=false >&2
  ninja -C "$dir/build" src/ropelab >&2
fi
echo "$dir/build/src/ropelab"
