#!/bin/sh
# bench_audit.sh [OUTDIR [PAIRS]]: time `ropelab audit` identifying an
# inverse-frequency table of rope base 10000 (written by awk, one value
# per line: theta_i = 10000^(-i/n)) for each pair count in PAIRS (default
# "256 1024 2048 8192"), CPU (user) seconds, sequential, one core.
# Issue 33 item 5: 13 ms a pair (2,048 pairs 26 s).  Measured on this
# project's 2-core machine at load 16-18 (shared with other builds: CPU
# time, not wall), debugoptimized build:
#   before (every kept candidate x 8 pipelines): 256 pairs 2.20 s,
#     1024 pairs 7.80 s (7.6 ms a pair)
#   after (exact values first, the pipelines of the best 16 only; for
#     frequencies the best 48 of the quick score): 256 pairs 0.37 s,
#     1024 1.53 s, 2048 3.00 s, 8192 12.5 s (1.5 ms a pair, 5x less);
#     above 65536 pairs (RL_AUDIT_MAX_PAIRS) refused up front, exit 2.
# Writes OUTDIR/bench.csv: pairs,exit,user_seconds.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/out/bench_audit}
pairs=${2:-256 1024 2048 8192}
"$top/experiments/setup.sh"
rl=$top/build/src/ropelab
[ -x /usr/bin/time ] || { echo "bench_audit: needs /usr/bin/time (Debian package time)" >&2; exit 1; }
mkdir -p "$out"
csv=$out/bench.csv
echo "pairs,exit,user_seconds" > "$csv"
for n in $pairs; do
  awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "%.17g\n", exp(-i / n * log(10000)) }' \
    > "$out/inv$n.csv"
  set +e
  /usr/bin/time -o "$out/time.txt" -f "%U" "$rl" audit "$out/inv$n.csv" > "$out/audit$n.csv" 2>/dev/null
  rc=$?
  set -e
  echo "$n,$rc,$(tail -1 "$out/time.txt")" >> "$csv"
done
cat "$csv"
echo "load: $(uptime)" >&2
