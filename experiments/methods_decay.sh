#!/bin/sh
# methods_decay.sh [OUTDIR]: RoFormer's relative upper bound of the
# long-term decay (Su et al. 2021, sec. 3.4.3) for each method's logit, on
# one axis: d = 128, base 10000, trained at L = 4096, s = 8, r from 1 to
# 65536 on 16000 log-spaced distances.  Past r ~ 100 the bound oscillates
# faster than any plot can show, so the table holds its mean over each
# 1/8 octave of r (`--bins 8`: r the bin's geometric centre, n its count).
# With a --method, `ropelab decay` measures the logit the method computes:
# times its logit multiplier (YaRN's attention factor squared), at the
# mapped position (leaky ReRoPE), with xPos' amplitudes and log-n's query
# scale at N = 32768.  One sweep over the methods: each takes the options
# it has (--factor for the scaled ones, --window and --leak for leaky
# ReRoPE, --seq-len for log-n), the others' cells are empty.
# Outputs: bound.csv and bound.png (plots/methods_decay.gp, its key read
# from the sweep's per-method metadata).  OUTDIR defaults to
# out/methods_decay.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/out/methods_decay}

"$top/experiments/setup.sh" "$top/build"
ropelab=$top/build/src/ropelab

mkdir -p "$out"
"$ropelab" decay --dim 128 --base 10000 --train-len 4096 --measure bound \
  --log --from 1 --to 65536 --points 16000 --bins 8 \
  --method rope,linear,ntk,yarn,llama3,xpos,leaky-rerope,log-n \
  --factor 8 --window 512 --leak 16 --seq-len 32768 --quiet -o "$out/bound.csv"

gnuplot -c "$top/plots/methods_decay.gp" "$out/bound.csv" "$out/bound.png" pngcairo

echo "data:   $out/bound.csv"
echo "figure: $out/bound.png"
