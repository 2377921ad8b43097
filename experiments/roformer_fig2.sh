#!/bin/sh
# roformer_fig2.sh [OUTDIR]: reproduce RoFormer Fig. 2 (Su et al. 2021,
# section 3.4.3): the relative upper bound of RoPE's long-term decay for
# d = 128, base 10000, r = 0..256, with the similarity sum_i cos(r theta_i)
# (Men et al. 2024, eq. 9) alongside.  The step 1/16 is dyadic, so every
# distance is an exact double and the fast streaming path applies.
# Writes OUTDIR/decay.csv and OUTDIR/decay.png (default out/roformer-fig2).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/out/roformer-fig2}

"$top/experiments/setup.sh" "$top/build"
ropelab=$top/build/src/ropelab

mkdir -p "$out"
"$ropelab" decay --dim 128 --base 10000 --from 0 --to 256 --step 0.0625 \
  --measure bound,similarity -o "$out/decay.csv" --plot "$out/decay.png"

echo "data:   $out/decay.csv"
echo "figure: $out/decay.png"
