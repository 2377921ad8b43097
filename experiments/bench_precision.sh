#!/bin/sh
# bench_precision.sh [ROPELAB]: time and peak memory of the precision
# envelope, one pipeline at a time, over 10^6 positions x 64 pairs:
#   ropelab precision --precision P --dim 128 --to 999999 --points 16 -o /dev/null
# Every position is evaluated (streamed, memory O(pairs)); two threads.
# Uses GNU time (Debian package `time`) for the peak resident set.
# ROPELAB defaults to build-bench/src/ropelab (a release build, made when
# missing).  Compare wall_s with user_s: on a busy machine the wall time
# is the other processes' as much as ours.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -ge 1 ]; then
  ropelab=$1
else
  build=$top/build-bench
  [ -f "$build/build.ninja" ] || meson setup "$build" "$top" -Dbuildtype=release >&2
  ninja -C "$build" src/ropelab >&2
  ropelab=$build/src/ropelab
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

printf '%-10s %10s %10s %10s %10s %14s\n' pipeline positions wall_s user_s sys_s peak_rss_kb
for p in hf-fp32 hf-bf16 hf-f16 ggml-f32 ggml-f16 vllm-bf16 fp64; do
  n=1000000
  set -- "$ropelab" precision --precision $p --dim 128 --to $((n - 1)) --points 16 -o /dev/null
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -v "$@" 2>"$tmp/time.txt"
    awk -v p=$p -v n=$n -F': ' '
      /Elapsed \(wall clock\)/ { k = split($2, t, ":"); w = 0; for (i = 1; i <= k; i++) w = w * 60 + t[i] }
      /User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident/ { m = $2 }
      END { printf "%-10s %10s %10.2f %10.2f %10.2f %14s\n", p, n, w, u, s, m }' "$tmp/time.txt"
  else
    start=$(date +%s.%N)
    "$@"
    end=$(date +%s.%N)
    awk -v p=$p -v n=$n -v a="$start" -v b="$end" \
      'BEGIN { printf "%-10s %10s %10.2f %10s %10s %14s\n", p, n, b - a, "-", "-", "-" }'
  fi
done

# Pair-by-pair paths under a pipeline (the rope scheme's logit matrix and
# `check`'s rotations): CPU time of
#   ropelab matrix --scheme rope --precision P --len 512 --dim D --threads 1
# Each pair's cos/sin comes from the pipeline's per-pair formula (one
# entry, O(1); ggml O(i) float products), not a whole row per pair.
printf '\n%-10s %6s %10s\n' pipeline dim user_s
for p in exact hf-bf16 ggml-f32; do
  for d in 128 1024; do
    /usr/bin/time -f '%U' -o "$tmp/u.txt" "$ropelab" matrix --scheme rope --precision $p \
      --len 512 --dim $d --threads 1 --quiet -o /dev/null
    printf '%-10s %6s %10s\n' $p $d "$(cat "$tmp/u.txt")"
  done
done
