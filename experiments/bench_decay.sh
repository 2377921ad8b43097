#!/bin/sh
# bench_decay.sh [RUNS]: RoFormer's long-term decay bound over 10^6 rows
# (r = 0..999999, d = 128, base 10000), whole processes side by side:
#   ropelab decay --from 0 --to 999999 --step 1 --dim 128 -o FILE.csv
# (default threads, then --threads 1, then > FILE.csv: no fsync, as the
# numpy scripts write) against two numpy scripts that also
# save the CSV: the one a user writes (experiments/bench_decay_numpy_csv.py:
# np.savetxt with '%.17g') and the fastest honest one we know
# (bench_decay_numpy_fast.py: the same evaluation, the text by one join
# over repr), each on one thread; CPU for CPU, ropelab --threads 1 is
# compared with the fast peer.  Then the kernels alone: ropelab's streaming
# evaluator (tests/measures/bench_decay.c) against the numpy evaluation
# (experiments/bench_decay_numpy.py), and ropelab's peak memory.
#
# Prints the median wall time of RUNS runs (default 5) of each with the
# CPU time (user + sys) of the same runs (the machine may be shared: the
# CPU time is what a run costs), the speed-ups, and the largest relative
# difference between the two CSVs' bounds.  BEFORE=/path/to/ropelab adds
# a row for another build (e.g. before a change).  Installs python3-numpy
# and time (Debian) when missing and builds build-bench (release).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-5}
rows=1000000
build=$top/build-bench
ROPELAB_EXTRA_NEED="python3-numpy:/usr/lib/python3/dist-packages/numpy/__init__.py time:/usr/bin/time bash:/bin/bash ${ROPELAB_EXTRA_NEED:-}" \
  sh "$top/experiments/setup.sh" "$build" -Dbuildtype=release
ninja -C "$build" tests/measures/bench_decay >&2
ropelab=$build/src/ropelab
bench=$build/tests/measures/bench_decay
python=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# timed NAME CMD...: one run, "wall cpu" appended to $tmp/NAME.  bash's
# `time` keyword reports milliseconds (/usr/bin/time: hundredths, too
# coarse for runs under 0.1 s); CPU is user + sys of the process.
timed() {
  name=$1
  shift
  bash -c 'TIMEFORMAT="%3R %3U %3S"; exec 3>&2; { time "$@" >/dev/null 2>&3; } 2>"$0"' "$tmp/t" "$@"
  awk '{ printf "%s %.3f\n", $1, $2 + $3 }' "$tmp/t" >>"$tmp/$name"
}

set -- --from 0 --to $((rows - 1)) --step 1 --dim 128
steal0=$(awk '/^cpu / { print $9 }' /proc/stat 2>/dev/null || echo 0)
t0=$(date +%s)
i=0
while [ "$i" -lt "$runs" ]; do
  timed ropelab "$ropelab" decay "$@" -o "$tmp/r.csv"
  timed ropelab1 "$ropelab" decay "$@" --threads 1 -o "$tmp/r1.csv"
  # as numpy writes: into the page cache, no fsync and no rename (-o's
  # promise that the file is whole once the command returns costs them)
  timed redirect sh -c 'f=$1; shift; exec "$0" decay "$@" >"$f"' "$ropelab" "$tmp/s.csv" "$@"
  [ -n "${BEFORE:-}" ] && timed before "$BEFORE" decay "$@" -o "$tmp/b.csv"
  timed numpy "$python" "$top/experiments/bench_decay_numpy_csv.py" "$rows" 128 10000 "$tmp/np.csv"
  timed numpyfast "$python" "$top/experiments/bench_decay_numpy_fast.py" "$rows" 128 10000 "$tmp/npf.csv"
  i=$((i + 1))
done
wall() { cut -d' ' -f1 <"$tmp/$1" | median; }
best() { cut -d' ' -f1 <"$tmp/$1" | sort -g | head -1; }
cpu() { cut -d' ' -f2 <"$tmp/$1" | median; }
tn=$(wall numpy)
cn=$(cpu numpy)
bn=$(best numpy)
# the hypervisor's steal time during the runs: on a shared host the wall
# times of both programs stretch with it, and the best of the runs is the
# least disturbed
steal=$(awk '/^cpu / { print $9 }' /proc/stat 2>/dev/null || echo 0)
steal_pct=$(awk -v s0="$steal0" -v s1="$steal" -v t0="$t0" -v t1="$(date +%s)" -v n="$(nproc 2>/dev/null || echo 1)" \
  'BEGIN { d = (t1 - t0) * n * 100; printf "%.0f", (d > 0 ? 100 * (s1 - s0) / d : 0) }')

echo "long-term decay bound to CSV, d=128 base=10000, r = 0..$((rows - 1)), whole process, $runs runs each (interleaved), $(nproc 2>/dev/null || echo '?') cores, load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?'), steal time ${steal_pct}% of the CPUs"
printf '%-40s %9s %9s %9s %10s %10s\n' program "wall_s" "best_s" cpu_s "x (wall)" "x (best)"
row() { printf '%-40s %9.3f %9.3f %9.3f %10.1f %10.1f\n' "$1" "$(wall "$2")" "$(best "$2")" "$(cpu "$2")" "$(echo "$tn $(wall "$2")" | awk '{ print $1 / $2 }')" "$(echo "$bn $(best "$2")" | awk '{ print $1 / $2 }')"; }
row "numpy + np.savetxt('%.17g')" numpy
row "numpy + one join over repr (fastest)" numpyfast
row "ropelab decay -o (default threads)" ropelab
row "ropelab decay -o --threads 1" ropelab1
row "ropelab decay > FILE (no fsync, as numpy)" redirect
[ -n "${BEFORE:-}" ] && row "before: $BEFORE" before
echo "(wall_s: median; best_s: fastest run; cpu_s: median user + sys; x: numpy's time over the row's)"
echo "CPU for CPU, one thread against one: ropelab decay -o --threads 1 $(cpu ropelab1) s, the fastest numpy $(cpu numpyfast) s ($(echo "$(cpu numpyfast) $(cpu ropelab1)" | awk '{ printf "%.1f", $1 / $2 }')x); ropelab on every core: $(cpu ropelab) s of CPU, $(wall ropelab) s wall"
for r in ropelab redirect; do
  how=-o
  [ "$r" = redirect ] && how="> FILE"
  echo "$tn $(wall $r) $bn $(best $r)" | awk -v how="$how" '{ x = $1 / $2; y = $3 / $4; printf "target: ropelab decay %s at 50x the numpy script'"'"'s wall time: %s (median %.1fx, best %.1fx)\n", how, (x >= 50 ? "met" : "NOT met on the median"), x, y }'
done
cmp -s "$tmp/r.csv" "$tmp/r1.csv" || { grep -v '^# command=' "$tmp/r.csv" >"$tmp/a"; grep -v '^# command=' "$tmp/r1.csv" >"$tmp/b"; cmp -s "$tmp/a" "$tmp/b"; } &&
  echo "ropelab's CSV is the same bytes with 1 and the default threads (metadata's command line aside)"
echo "CSV sizes: ropelab $(grep -v '^#' "$tmp/r.csv" | wc -c) bytes (shortest round-trip), numpy $(wc -c <"$tmp/np.csv") bytes (%.17g)"
grep -v '^#' "$tmp/r.csv" >"$tmp/plain.csv"
"$python" -c '
import sys, numpy as np
c = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1)
n = np.loadtxt(sys.argv[2], delimiter=",", skiprows=1)
assert (c[:, 0] == n[:, 0]).all()
print("max relative difference of the bounds, numpy vs ropelab: %.3g (numpy rounds r*theta to a double: ~1e-16 r)" % np.max(np.abs(c[:, 1] - n[:, 1]) / np.abs(c[:, 1])))' "$tmp/plain.csv" "$tmp/np.csv"

# the kernels alone (no text)
: >"$tmp/c"
: >"$tmp/np"
i=0
while [ "$i" -lt "$runs" ]; do
  "$bench" "$rows" | sed -n 's/^seconds //p' >>"$tmp/c"
  "$python" "$top/experiments/bench_decay_numpy.py" "$rows" >>"$tmp/np"
  i=$((i + 1))
done
tc=$(median <"$tmp/c")
tk=$(median <"$tmp/np")
echo
echo "kernels alone (evaluation, no CSV), median of $runs runs:"
printf '%-36s %9s %10s\n' method seconds speed-up
printf '%-36s %9.4f %10.1f\n' "numpy (direct, chunks 8192)" "$tk" 1
printf '%-36s %9.4f %10.1f\n' "ropelab rl_decay_eval" "$tc" "$(echo "$tk $tc" | awk '{ print $1 / $2 }')"
"$bench" "$rows" 128 10000 "$tmp/c.bin" >"$tmp/check"
echo "ropelab rows checked against the accurate reference (1e-12): $(sed -n 's/^checked //p' "$tmp/check")"

for n in 100000 1000000; do
  kb=$(/usr/bin/time -v "$ropelab" decay --to $((n - 1)) --dim 128 -o "$tmp/m.csv" 2>&1 >/dev/null | sed -n 's/.*Maximum resident set size (kbytes): //p')
  echo "peak memory (max RSS), ropelab decay -o, $n rows: $kb kB"
done
