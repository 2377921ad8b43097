#!/bin/sh
# extrapolate.sh [OUTDIR]: what changes past the training length, every
# scheme and the main RoPE methods on one axis each (ropelab extrapolate):
# d = 128, trained at L = 1024, evaluated up to N = 16384, 64 content
# samples from seed 1; the methods at s = N / L = 16 (YaRN's temperature
# comes with its method; log-n's query scale at each length).  A run
# with a local window (W = 512 last tokens + 4 sinks, StreamingLLM's
# cache positions) is added for rope.
# Outputs in OUTDIR (default out/extrapolate): extrapolate.csv (the tidy
# table of both runs) and extrapolate.png, drawn by plots/extrapolate.gp,
# the script of `ropelab extrapolate --plot` (one run alone: add --plot).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/out/extrapolate}
"$top/experiments/setup.sh" "$top/build"
ropelab=$top/build/src/ropelab
mkdir -p "$out"

L=1024 N=16384
# --draw-contents: the random stream experiments/extrapolate/README.md's figure and numbers were
# drawn with (the default, the logits' law, has the same expectations)
common="--train-len $L --eval-len $N --dim 128 --samples 64 --seed 1 --distances 0,1:8192:x2,16383 --draw-contents"
"$ropelab" extrapolate $common --scheme nope,sinusoidal,learned,t5,alibi,rope \
  --method rope,linear,ntk,yarn,log-n -o "$out/full.csv"
"$ropelab" extrapolate $common --scheme rope --local-window 512 --sink-tokens 4 \
  --no-meta --no-header -o "$out/window.csv"
cat "$out/full.csv" "$out/window.csv" > "$out/extrapolate.csv"
rm -f "$out/full.csv" "$out/window.csv"

# the figure ropelab extrapolate --plot draws, of both runs' rows
gnuplot -c "$top/plots/extrapolate.gp" "$out/extrapolate.csv" "$out/extrapolate.png"
echo "data:   $out/extrapolate.csv" >&2
echo "figure: $out/extrapolate.png" >&2
