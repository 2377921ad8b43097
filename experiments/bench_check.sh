#!/bin/sh
# bench_check.sh [OUTDIR [DIMS [SPLIT_DIM]]]: time `ropelab check --dim D`
# with the default options for each D in DIMS (default "128 1024"), and
# each check alone (`check --only NAME`) at SPLIT_DIM (default 1024; ""
# for none), to see which family the time goes to.  Records wall and
# user seconds and peak memory (/usr/bin/time -v).  Issue 7 reported
# 47 s for --dim 1024; `sh experiments/bench_check.sh out/bc "4096" ""`
# times the d = 4096 run alone.  The runs are sequential: one core.
# Writes OUTDIR/bench.csv: what,check,d,exit,seconds,user_seconds,peak_kib.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/out/bench_check}
dims=${2:-128 1024}
split=${3-1024}
"$top/experiments/setup.sh"
rl=$top/build/src/ropelab
[ -x /usr/bin/time ] || { echo "bench_check: needs /usr/bin/time (Debian package time)" >&2; exit 1; }
mkdir -p "$out"
csv=$out/bench.csv
echo "what,check,d,exit,seconds,user_seconds,peak_kib" > "$csv"
measure() { # what check d args...
  what=$1 name=$2 d=$3; shift 3
  rc=0
  /usr/bin/time -v -o "$out/time.txt" "$rl" check --dim "$d" "$@" >/dev/null || rc=$?
  secs=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$out/time.txt" |
    awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
  user=$(sed -n 's/.*User time (seconds): //p' "$out/time.txt")
  kib=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$out/time.txt")
  echo "$what,$name,$d,$rc,$secs,$user,$kib" | tee -a "$csv" >&2
}
for d in $dims; do
  measure all all "$d"
done
if [ -n "$split" ]; then
  for name in $("$rl" check --list | awk '{ print $1 }'); do
    measure only "$name" "$split" --only "$name"
  done
fi
rm -f "$out/time.txt"
