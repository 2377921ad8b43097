#!/bin/sh
# agree.sh ROPELAB: `ropelab freqs` against the independent Python reference
# (ref_schedules.py) on the cases where both describe the same formula, in
# both of the reference's modes: exact (the formula evaluated exactly) and
# f32 (the variant's own float32 pipeline).  compare_freqs.py states and
# justifies the tolerances.  The full grid, including cases that differ by
# design (see README.md here), is compare.sh.
set -u
ropelab=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ropelab-agree.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0 n=0
one() {
  m=$1 v=$2
  shift 2
  "$ropelab" freqs --method "$m" --variant "$v" "$@" >"$tmp/got.csv" || { fail=$((fail + 1)); return; }
  for prec in exact f32; do
    n=$((n + 1))
    python3 "$here/ref_schedules.py" --method "$m" --variant "$v" "$@" --precision "$prec" >"$tmp/ref.csv" &&
      python3 "$here/compare_freqs.py" "$prec" "$v" "$m" "$tmp/got.csv" "$tmp/ref.csv" "$m $v $* [$prec]" ||
      fail=$((fail + 1))
  done
}
for d in 64 128; do
  for b in 1e4 5e5; do
    one rope hf --dim $d --base $b
    one linear hf --dim $d --base $b --factor 8
    one linear vllm --dim $d --base $b --factor 4
    one ntk hf --dim $d --base $b --factor 2
    one ntk vllm --dim $d --base $b --factor 8
    one dynamic hf --dim $d --base $b --factor 2 --train-len 4096 --seq-len 8192
    one yarn hf --dim $d --base $b --factor 8 --train-len 4096
    one yarn hf --dim $d --base $b --factor 16 --train-len 2048 --truncate no
    one yarn ggml --dim $d --base $b --factor 8 --train-len 4096
    one yarn vllm --dim $d --base $b --factor 4 --train-len 8192
    one llama3 hf --dim $d --base $b --factor 8 --train-len 8192
  done
done
echo "$((n - fail)) passed, $fail failed"
[ $fail = 0 ]
