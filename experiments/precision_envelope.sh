#!/bin/sh
# precision_envelope.sh: the precision envelope of every framework pipeline
# against position, up to 128K (131072), d = 128, base 10000 (RoFormer) and
# 500000 (Llama 3), every position evaluated, 48 log-spaced rows:
#   out/precision_envelope/envelope_b<base>.csv  (ropelab precision)
#   out/precision_envelope/envelope_b<base>.png  (plots/precision.gp)
# experiments/precision/README.md shows envelope_b500000.png as experiments/figures/precision-envelope.png
# (every pipeline but exact; identical ones share a panel: plots/precision.gp).
# Installs what is missing and builds like the other experiment scripts.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sh "$top/experiments/setup.sh" build >&2
ropelab=$top/build/src/ropelab
out=$top/out/precision_envelope
mkdir -p "$out"
for b in 10000 500000; do
  "$ropelab" precision --dim 128 --base $b --to 131072 --points 48 \
    -o "$out/envelope_b$b.csv" --plot "$out/envelope_b$b.png"
  echo "wrote $out/envelope_b$b.csv and .png"
done
