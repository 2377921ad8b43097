#!/bin/sh
# bench_decay.sh [RUNS]: RoFormer's long-term decay bound over 10^6 rows
# (r = 0..999999, d = 128, base 10000), ropelab's streaming evaluator
# (tests/measures/bench_decay.c) against the direct numpy evaluation a user
# would write (experiments/bench_decay_numpy.py).
#
# Prints a table of the median time of RUNS runs (default 5) of each, the
# speed-up, the largest relative difference between the two over all rows,
# and ropelab's peak memory at 10^5 and 10^6 rows (the evaluator streams:
# it should not grow).  Builds build-bench (release) when it is missing.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-5}
rows=1000000
build=$top/build-bench
python=/usr/bin/python3
[ -x "$python" ] || python=python3

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" "$top" -Dbuildtype=release >&2
fi
ninja -C "$build" tests/measures/bench_decay >&2
bench=$build/tests/measures/bench_decay
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

i=0
while [ "$i" -lt "$runs" ]; do
  "$bench" "$rows" | sed -n 's/^seconds //p' >>"$tmp/c"
  "$python" "$top/experiments/bench_decay_numpy.py" "$rows" >>"$tmp/np"
  i=$((i + 1))
done
tc=$(median <"$tmp/c")
tn=$(median <"$tmp/np")

# the same rows once more, written out, for the accuracy comparison
"$bench" "$rows" 128 10000 "$tmp/c.bin" >"$tmp/check"
"$python" "$top/experiments/bench_decay_numpy.py" "$rows" 128 10000 "$tmp/np.npy" >/dev/null
maxrel=$("$python" -c '
import sys, numpy as np
c = np.fromfile(sys.argv[1], dtype=np.float64)
n = np.load(sys.argv[2])
print("%.3g" % np.max(np.abs(c - n) / np.abs(c)))' "$tmp/c.bin" "$tmp/np.npy")

echo "long-term decay bound, d=128 base=10000, r = 0..$((rows - 1)), median of $runs runs, $(nproc 2>/dev/null || echo '?') cores"
printf '%-28s %10s %10s\n' method seconds speed-up
printf '%-28s %10.4f %10.1f\n' "numpy (direct, chunks 8192)" "$tn" 1
printf '%-28s %10.4f %10.1f\n' "ropelab rl_decay_eval" "$tc" "$(echo "$tn $tc" | awk '{ print $1 / $2 }')"
echo "max relative difference numpy vs ropelab: $maxrel (numpy rounds r*theta to a double: ~1e-16 r)"
echo "ropelab rows checked against the accurate reference (1e-12): $(sed -n 's/^checked //p' "$tmp/check")"

if /usr/bin/time -v true >/dev/null 2>&1; then
  for n in 100000 1000000; do
    kb=$(/usr/bin/time -v "$bench" "$n" 2>&1 >/dev/null | sed -n 's/.*Maximum resident set size (kbytes): //p')
    echo "peak memory (max RSS), ropelab, $n rows: $kb kB"
  done
else
  echo "peak memory: /usr/bin/time -v not available, skipped"
fi
