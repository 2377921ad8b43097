#!/bin/sh
# schemes_profiles.sh [OUTDIR]: the positional part of the logit against
# relative distance r = 0..256 for eight schemes (rope, alibi, t5, deberta,
# xl, sinusoidal, learned, tupe; not nope, 0 everywhere, rope2d, 2-D, nor
# the integer and binary baselines) on one axis (query at 256, key at 256 - r; d = 64, 200 content samples).
# W_q = W_k = I (--identity), so 'same content' means q = k and RoPE's curve
# is sum_i |x_i|^2 (cos r theta_i - 1); head 7 of 8 gives ALiBi its gentlest
# slope, 1/256, so the eight share one scale.
# Raw logits (--plot-normalize none): with head 7 the eight fit one
# scale, so no curve needs rescaling.
# Writes OUTDIR/profiles.csv, profiles.png (two panels: identical content
# above, independent content with +-2 se bands below), and each panel on
# its own: profiles_same.png, profiles_mean.png.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/out/schemes_profiles}
"$top/experiments/setup.sh"
rl=$top/build/src/ropelab
mkdir -p "$out"
"$rl" profile --scheme rope,alibi,t5,deberta,xl,sinusoidal,learned,tupe --dim 64 --to 256 --identity --head 7 \
  --samples 200 --plot-normalize none -o "$out/profiles.csv" --plot "$out/profiles.png"
gnuplot -c "$top/plots/profile.gp" "$out/profiles.csv" "$out/profiles_same.png" "" same none
gnuplot -c "$top/plots/profile.gp" "$out/profiles.csv" "$out/profiles_mean.png" "" mean none
echo "$out/profiles.png $out/profiles_same.png $out/profiles_mean.png" >&2
