#!/bin/sh
# sweep_memory.sh [ROPELAB] [BEFORE]: memory and time of large sweeps.
# For each binary (ROPELAB, default build/src/ropelab; BEFORE, optional,
# e.g. a build of an older commit) and each size, runs
#   ropelab decay --to 2 --base 2:N+1:1 --jobs J > /dev/null
# under /usr/bin/time and prints max RSS, user + system CPU and wall
# time, the binaries interleaved so that load on the machine hits both
# alike.  Also audit of an inverse-frequency CSV of N values, check
# --table of 2 x N rows and compare --dim D --len 2, whose cost grows
# faster than their input (issue 20, item 9): their times are printed
# beside the sizes so the growth can be read off.
# Sizes: SWEEP_POINTS (default "1000 4000"), JOBS (default "1 2"),
# AUDIT_N (default "1000 2000 4000"), COMPARE_DIM (default "64 128 256").
set -u
new=${1:-build/src/ropelab}
old=${2:-}
T=/usr/bin/time
[ -x "$T" ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
run() { # label, command...
  l=$1; shift
  "$T" -f "$l	rss_kb=%M	cpu_s=%U+%S	wall_s=%e" "$@" > /dev/null 2> "$tmp/err" ||
    { echo "$l	failed: $(tail -1 "$tmp/err")"; return; }
  tail -1 "$tmp/err"
}
echo "# sweep: decay --to 2 --base 2:N+1:1 --jobs J"
for n in ${SWEEP_POINTS:-1000 4000}; do
  for j in ${JOBS:-1 2}; do
    for b in "$new" $old; do
      run "$(basename "$b") points=$n jobs=$j" "$b" decay --to 2 --base 2:$((n + 1)):1 --jobs "$j"
    done
  done
done
echo "# audit of N inverse frequencies (rope, base 10000, d = 2N)"
for n in ${AUDIT_N:-1000 2000 4000}; do
  awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "%.17g\n", exp(-log(10000) * i / n) }' > "$tmp/f$n.csv"
  for b in "$new" $old; do
    run "$(basename "$b") audit values=$n" "$b" audit "$tmp/f$n.csv"
  done
done
echo "# compare --dim D --len 2"
for d in ${COMPARE_DIM:-64 128 256}; do
  for b in "$new" $old; do
    run "$(basename "$b") compare dim=$d" "$b" compare --dim "$d" --len 2
  done
done
