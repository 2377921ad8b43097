#!/bin/sh
# bench_schemes.sh [OUTDIR]: time `matrix` (grid, n = 8192, d = 128: 67M
# logits) and `profile` (8192 distances, d = 128) and record peak memory
# (/usr/bin/time -v "Maximum resident set size"), to show that memory
# stays O(n d), not O(n^2): the n = 8192 grid alone would be 512 MiB as
# doubles.  Output goes to /dev/null so the disk does not dominate.
# Writes OUTDIR/bench.csv: what,scheme,n,d,threads,seconds,cpu_seconds,
# peak_kib (several schemes joined by '+', so that every row has the
# header's 8 fields; checked at the end).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/out/bench_schemes}
"$top/experiments/setup.sh"
rl=$top/build/src/ropelab
mkdir -p "$out"
csv=$out/bench.csv
echo "what,scheme,n,d,threads,seconds,cpu_seconds,peak_kib" > "$csv"
threads=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
measure() { # what scheme n threads args...
  what=$1 scheme=$2 n=$3 t=$4; shift 4
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -v -o "$out/time.txt" "$rl" "$@" --threads "$t" --quiet >/dev/null
    secs=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$out/time.txt" |
      awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
    cpu=$(sed -n 's/.*\(User\|System\) time (seconds): //p' "$out/time.txt" | awk '{ s += $1 } END { print s }')
    kib=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$out/time.txt")
  else
    start=$(date +%s.%N); "$rl" "$@" --threads "$t" --quiet >/dev/null; end=$(date +%s.%N)
    secs=$(echo "$end - $start" | bc); cpu=NA kib=NA
  fi
  echo "$what,$(echo "$scheme" | tr , +),$n,128,$t,$secs,$cpu,$kib" | tee -a "$csv" >&2
}
for s in rope alibi sinusoidal; do
  for t in 1 "$threads"; do
    measure matrix "$s" 8192 "$t" matrix --scheme "$s" --dim 128 --len 8192 --format grid
  done
done
# memory against n: peak RSS must grow like n, not n^2
for n in 1024 2048 4096 8192; do
  measure matrix rope "$n" "$threads" matrix --scheme rope --dim 128 --len "$n" --format grid
done
measure profile rope 8192 "$threads" profile --scheme rope --dim 128 --to 8191 --samples 16
measure profile alibi,t5,rope 8192 "$threads" profile --scheme alibi,t5,rope --dim 128 --to 8191 --samples 16
rm -f "$out/time.txt"
# every row as wide as the header
awk -F, 'NR == 1 { n = NF } NF != n { print "bench_schemes: row " NR " has " NF " fields, header " n; bad = 1 }
  END { exit bad }' "$csv" >&2
