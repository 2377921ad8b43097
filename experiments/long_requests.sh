#!/bin/sh
# long_requests.sh: issue 33 item 5's sweep.  Each command at extreme option
# values, under `ulimit -v` (4000000 KB) and a time limit (60 s): a run must
# end in exit 0, or in exit 2 up front (within a few seconds), and never run
# silent: with --progress, stderr must show a progress line within SILENT
# seconds.  Prints one line per run (verdict, exit, seconds to the first
# stderr byte, command) and a count; exit 1 if any run broke the rule.
# Usage: sh experiments/long_requests.sh [BUILD_DIR]  (TIMEOUT=60 SILENT=5 VMEM=4000000)
# Result on 2026-12-06 (load ~20, TIMEOUT=40): 18 runs, 8 broke the rule:
# refused up front: decay mc 1e9 samples, decay 2^32+1 points, decay --to 2^31,
# extrapolate eval-len 1e8 / 1e6, train-len 2^31; progress shown then cut by
# the limit: decay 1e8 log points; still broken: bound men at d = 2^20 refused
# only after 16 s, bound men --len 1e7 --dim 1024 and --base at 2^31 silent,
# freqs --dim 2:1048576:2 (a sweep) silent, freqs --dim 2^20 15 s silent,
# extrapolate 1e4/1e5 first line after 9 s, angles --dim 2^20 and profile
# --dim 65536 exit 3 "out of memory".
# Since (branch longfreqs): bound men at d = 2^20 refused before the schedule
# is built (0.00 s CPU, was 0.63 s); freqs --dim 2^20 0.8-0.9 s CPU (was
# 1.6 s) with progress on its rows.
# Since (branch long2; rerun 2026-12-06 10:56 UTC, TIMEOUT=30, load ~32 with
# a test suite and a build running beside it, so first-byte times are wall
# on an overloaded machine): freqs --dim 2:1048576:2 cut with progress
# (first byte 4 s: the sweep's checking pass shows its own line, then the
# table's, weighed by the core's cost estimates where every point has
# one); bound men --len 1e7 --dim 1024 cut with progress (first byte 0 s:
# RL_MEN_PROGRESS_STEPS a length, each length's share from its CPU over
# rl_cost_men); bound men --base 10000 --len 2^31-1 --dim 2^20 first byte
# after 15 s wall (its schedule's 2^19 exact frequencies, ~0.6 s CPU, come
# before the check's 0%), then the upward scan's share; profile --dim
# 65536 refused up front (137 GB of d x d matrices, at most d = 7904);
# angles --dim 2^20 bounded memory (157 MB RSS at --to 3, was 43 GB a
# worker, exit 3), killed without a byte in 30 s at this load (a position
# of 2^19 pairs: ~0.5 s CPU): a 0% line at the start added after the run.
# Marked broken in that run, load: decay mc --samples 1e7 (one row = one
# chunk of ~7.7 s CPU), decay 1e8 log points (first byte 6 s), freqs
# --dim 2^20 (16 s), extrapolate 1e4/1e5 (declF's).
# Rerun on merged main 2026-12-06 12:00 UTC (TIMEOUT=40, load ~2, the
# machine idle but for CI's end): 18 runs, 2 broke the rule: decay
# --measure mc --samples 1e7 silent (a chunk of one row is ~8 s of CPU
# before its first update: since, a 0% line at once, case
# long_decay_mc_start) and precision --dim 1048576 --to 1e4 (first byte
# after 13 s: its preparation, the exact angles of 2^19 pairs, comes before
# its progress; open).  Every other run ended exit 2 up front or showed
# progress within 1 s (bound men --base at d = 2^20: exit 0 in 8 s).
# Since (lead, 2026-12-06 13:20): precision --dim 1048576 --to 1e4 refused
# up front (about 2.5 h of CPU by the cost model: 17 pipelines x 10001
# positions x 2^19 pairs at 0.1 us, at most 4023 positions in the hour;
# case bad_precision_cost), and its schedules' builds (~0.8 s of CPU each
# at d = 2^20) count in the progress, which now starts before them (case
# long_precision_build_progress; --sample log at d = 2^20 shows 1% at once).
set -u
BUILD=${1:-build}
R=${ROPELAB:-$BUILD/src/ropelab}
T=${TIMEOUT:-60}
S=${SILENT:-5}
V=${VMEM:-4000000}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
bad=0 n=0
run() {
  n=$((n + 1))
  err="$TMP/err" first="$TMP/first"
  : > "$err"; rm -f "$first"
  start=$(date +%s)
  ( ulimit -v "$V"; exec timeout -s KILL "$T" "$R" "$@" --progress -o "$TMP/out" ) 2> "$err" &
  pid=$!
  # the time to the first byte on stderr, polled
  while kill -0 "$pid" 2>/dev/null; do
    if [ ! -e "$first" ] && [ -s "$err" ]; then echo $(( $(date +%s) - start )) > "$first"; fi
    sleep 0.2
  done
  wait "$pid"; rc=$?
  el=$(( $(date +%s) - start ))
  [ -e "$first" ] || { [ -s "$err" ] && echo "$el" > "$first"; } || echo "-" > "$first"
  f=$(cat "$first")
  v=ok
  case $rc in
    0) if [ "$el" -gt "$S" ]; then
         if [ "$f" = "-" ]; then v=SILENT; elif [ "$f" -gt "$S" ]; then v=SILENT; fi
       fi ;;
    2) [ "$el" -gt "$S" ] && v=LATE-REFUSAL ;;
    137) if [ "$f" != "-" ] && [ "$f" -le "$S" ]; then v=cut-with-progress; else v=SILENT-KILLED; fi ;;
    *) v=BROKE ;;
  esac
  case $v in SILENT*|LATE*|BROKE) bad=$((bad + 1)) ;; esac
  printf '%-18s exit %-3s first %-3s s total %-3s s  %s\n' "$v" "$rc" "$f" "$el" "$*"
  [ "$rc" = 2 ] || [ "$rc" = 3 ] && tail -c 200 "$err" | tr '\r' '\n' | tail -1 | sed 's/^/    /'
}
run decay --measure mc --samples 1e9
run decay --measure mc --samples 1e7
run decay --measure mc --log --from 1 --to 4 --points 4294967297
run decay --log --from 1 --to 4 --points 4294967297
run decay --log --from 1 --to 4 --points 1e8
run decay --to 2147483648
run extrapolate --train-len 1e6 --eval-len 1e8
run extrapolate --train-len 2147483648 --eval-len 2147483648
run extrapolate --train-len 1e4 --eval-len 1e6
run extrapolate --train-len 1e4 --eval-len 1e5
run bound men --len 2147483647 --dim 1048576
run bound men --len 1e7 --dim 1024
run bound men --base 10000 --len 2147483647 --dim 1048576
run freqs --dim 1048576
run freqs --dim 2:1048576:2
run angles --dim 1048576 --to 1e4
run precision --dim 1048576 --to 1e4
run profile --dim 65536
echo "$n runs, $bad broke the rule (silent past ${S} s, a late refusal, exit 3 or killed without progress)"
[ "$bad" = 0 ]
