#!/bin/sh
# compare.sh ROPELAB: run `ROPELAB freqs` and ref_schedules.py on the same
# cases and compare theta per pair and the attention factor.
#
# Each case runs twice:
#   exact  reference evaluated exactly (60-digit decimal, rounded once);
#          theta within 2^-53 (4 + 2|ln theta|) relative (4.4e-16 .. 3.4e-15),
#          attention_factor within 1e-15 relative;
#   f32    reference = the variant's own float32 pipeline; theta within
#          2^-24 (K + |ln theta|), K = 4 for hf/vllm, 2i+4 for ggml (pair i),
#          plus 1..8 by method; attention 1e-15 (hf, vllm) or 8 * 2^-24 (ggml).
# (compare_freqs.py states the reasoning.)  Prints one `ok` / `not ok` line
# per comparison, a summary, and exits 1 if any failed.
#
# Grid: d in {64, 128}, base in {1e4, 5e5}, factor in {2, 8, 16},
# L in {2048, 4096, 8192}, for every method x variant that has the method.
# Set COMPARE_LIST=1 to print the command lines without running them.
set -u

if [ $# -ne 1 ]; then
  echo "usage: $0 ROPELAB" >&2
  exit 2
fi
ropelab=$1
here=$(cd "$(dirname "$0")" && pwd)
refsched() { python3 "$here/ref_schedules.py" "$@"; }
cmpfreqs() { python3 "$here/compare_freqs.py" "$@"; }
tmp=${TMPDIR:-/tmp}/ropelab-compare.$$
mkdir -p "$tmp" || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

pass=0
fail=0

# deterministic LongRoPE factor files, one per number of pairs
mkfactors() {
  python3 - "$1" "$2" <<'EOF'
import sys
n, path = int(sys.argv[1]), sys.argv[2]
with open(path, "w") as fh:
    fh.write("pair,short,long\n")
    for i in range(n):
        fh.write("%d,%r,%r\n" % (i, 1.0 + 0.0125 * i / n, 1.0 + 31.0 * (i / (n - 1)) ** 2))
EOF
}
mkfactors 32 "$tmp/factors32.csv"
mkfactors 64 "$tmp/factors64.csv"

# one case: METHOD VARIANT then the shared options
case1() {
  method=$1 variant=$2
  shift 2
  label="$method $variant $*"
  if [ "${COMPARE_LIST:-0}" = 1 ]; then
    echo "$ropelab freqs --method $method --variant $variant $*"
    echo "python3 $here/ref_schedules.py --method $method --variant $variant $* --precision exact"
    echo "python3 $here/ref_schedules.py --method $method --variant $variant $* --precision f32"
    return
  fi
  if ! "$ropelab" freqs --method "$method" --variant "$variant" "$@" >"$tmp/got.csv" 2>"$tmp/got.err"; then
    echo "not ok $label: ropelab failed: $(head -n 1 "$tmp/got.err")"
    fail=$((fail + 2))
    return
  fi
  for prec in exact f32; do
    if ! refsched --method "$method" --variant "$variant" "$@" --precision "$prec" >"$tmp/ref.csv" 2>"$tmp/ref.err"; then
      echo "not ok $label [$prec]: reference failed: $(head -n 1 "$tmp/ref.err")"
      fail=$((fail + 1))
      continue
    fi
    if cmpfreqs "$prec" "$variant" "$method" "$tmp/got.csv" "$tmp/ref.csv" "$label [$prec]"; then
      pass=$((pass + 1))
    else
      fail=$((fail + 1))
    fi
  done
}

for d in 64 128; do
  pairs=$((d / 2))
  if [ "$d" = 64 ]; then sections=8,12,12; else sections=16,24,24; fi
  for b in 1e4 5e5; do
    for v in hf ggml vllm; do
      case1 rope "$v" --dim "$d" --base "$b"
      case1 mrope "$v" --dim "$d" --base "$b" --sections "$sections"
      case1 p-rope "$v" --dim "$d" --base "$b" --fraction 0.25
      case1 p-rope "$v" --dim "$d" --base "$b" --fraction 0.75
    done
    case1 xpos hf --dim "$d" --base "$b" --scale-base 512
    case1 rerope hf --dim "$d" --base "$b" --window 512
    case1 leaky-rerope hf --dim "$d" --base "$b" --window 512 --leak 16
    for s in 2 8 16; do
      for v in hf ggml vllm; do
        case1 linear "$v" --dim "$d" --base "$b" --factor "$s"
      done
      for v in hf vllm; do
        case1 ntk "$v" --dim "$d" --base "$b" --factor "$s"
      done
      for L in 2048 4096 8192; do
        case1 log-n hf --dim "$d" --base "$b" --train-len "$L" --seq-len $((L * s))
        for v in hf vllm; do
          case1 dynamic "$v" --dim "$d" --base "$b" --factor "$s" --train-len "$L" --seq-len $((L * 2))
        done
        case1 dynamic hf --dim "$d" --base "$b" --factor "$s" --train-len "$L" --seq-len "$L"
        for v in hf ggml vllm; do
          case1 yarn "$v" --dim "$d" --base "$b" --factor "$s" --train-len "$L" --beta-fast 32 --beta-slow 1
          case1 llama3 "$v" --dim "$d" --base "$b" --factor "$s" --train-len "$L" \
            --low-freq-factor 1 --high-freq-factor 4
          case1 longrope "$v" --dim "$d" --base "$b" --factor "$s" --train-len "$L" \
            --factors "$tmp/factors$pairs.csv" --seq-len "$L"
          case1 longrope "$v" --dim "$d" --base "$b" --factor "$s" --train-len "$L" \
            --factors "$tmp/factors$pairs.csv" --seq-len $((L * 2))
        done
        for v in hf vllm; do
          case1 yarn "$v" --dim "$d" --base "$b" --factor "$s" --train-len "$L" --truncate no
        done
        for v in hf ggml vllm; do
          case1 yarn "$v" --dim "$d" --base "$b" --factor "$s" --train-len "$L" \
            --mscale 1 --mscale-all-dim 0.707
        done
      done
    done
  done
done

[ "${COMPARE_LIST:-0}" = 1 ] && exit 0
echo "# $pass passed, $fail failed"
[ "$fail" -eq 0 ]
