#!/bin/sh
# roformer_fig2.sh [OUTDIR]: reproduce RoFormer Fig. 2 (Su et al. 2021,
# section 3.4.3): the relative upper bound of RoPE's long-term decay for
# d = 128, base 10000, r = 0..256 (decay.csv, decay.png: the paper's figure),
# and the same with the similarity sum_i cos(r theta_i) (Men et al. 2024,
# eq. 9) alongside (similarity.csv, similarity.png).  The step 1/16 is
# dyadic, so every distance is an exact double and the fast streaming path
# applies.  OUTDIR defaults to out/roformer-fig2.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/out/roformer-fig2}

"$top/experiments/setup.sh" "$top/build"
ropelab=$top/build/src/ropelab

mkdir -p "$out"
"$ropelab" decay --dim 128 --base 10000 --from 0 --to 256 --step 0.0625 \
  --measure bound -o "$out/decay.csv" --plot "$out/decay.png"
"$ropelab" decay --dim 128 --base 10000 --from 0 --to 256 --step 0.0625 \
  --measure bound,similarity -o "$out/similarity.csv" --plot "$out/similarity.png"

echo "data:   $out/decay.csv"
echo "figure: $out/decay.png"
echo "with the similarity: $out/similarity.csv $out/similarity.png"
