#!/bin/sh
# methods_decay.sh [OUTDIR]: RoFormer's relative upper bound of the
# long-term decay (Su et al. 2021, sec. 3.4.3) for each method's logit, on
# one axis: d = 128, base 10000, trained at L = 4096, s = 8, r from 1 to
# 65536 on 16000 log-spaced distances.  Past r ~ 100 the bound oscillates
# faster than any plot can show, so the figure draws its average over each
# 1/8 octave of r (about 125 distances a bin; the raw values are in the
# per-method CSVs).  With a --method, `ropelab decay`
# measures the logit the method computes: times its logit multiplier
# (YaRN's attention factor squared), at the mapped position (leaky
# ReRoPE), with xPos' amplitudes and log-n's query scale at N = 32768.
# Outputs: one decay CSV per method (<method>.csv, every distance), the
# per-bin means side by side in bound.csv (r is the bin's geometric
# centre), and bound.png (plots/methods_decay.gp).
# OUTDIR defaults to out/methods_decay.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/out/methods_decay}

"$top/experiments/setup.sh" "$top/build"
ropelab=$top/build/src/ropelab

mkdir -p "$out"
common="--dim 128 --base 10000 --train-len 4096 --measure bound --log --from 1 --to 65536 --points 16000"
# name|label for the key|ropelab options
runs="rope|RoPE (unscaled)|--method rope
linear|linear (PI), s = 8|--method linear --factor 8
ntk|NTK-aware (static), s = 8|--method ntk --factor 8
yarn|YaRN (code ramp), s = 8, logit x 1.459|--method yarn --factor 8
llama3|llama3, s = 8, low 1, high 4|--method llama3 --factor 8
xpos|xPos, scale base 512|--method xpos
leaky-rerope|leaky ReRoPE, w = 512, k = 16|--method leaky-rerope --window 512 --leak 16
log-n|log-n, N = 32768: query x ln N / ln L = 1.25|--method log-n --seq-len 32768"

printf '%s\n' "$runs" | {
  names='' meta=''
  while IFS='|' read -r name label opts; do
    # shellcheck disable=SC2086
    "$ropelab" decay $common $opts --quiet -o "$out/$name.csv"
    names="$names $name"
    meta="$meta# series.$name=$label
"
  done
  {
    printf '# experiment=methods_decay: d = 128, base 10000, L = 4096, s = 8\n'
    printf '# train_len=4096\n# factor=8\n'
    printf '# binning=mean of the bound over each 1/8 octave of r (16000 log-spaced r in 1 .. 65536)\n'
    printf '%s' "$meta"
    awk -F, -v names="$names" -v dir="$out" '
      BEGIN { n = split(names, nm, " "); for (j = 1; j <= n; j++) ARGV[j] = dir "/" nm[j] ".csv"; ARGC = n + 1 }
      FNR == 1 { f++; hdr = 0 }
      /^#/ { next }
      !hdr { hdr = 1; for (i = 1; i <= NF; i++) if ($i == "bound") c[f] = i; next }
      {
        b = int(log($1) / log(2) * 8 + 1e-9); if ($1 >= 65536) b = 127
        v[f, b] += $(c[f]); cnt[f, b]++
        if (b > maxb) maxb = b
      }
      END {
        n = split(names, nm, " ")
        printf "r"; for (j = 1; j <= n; j++) printf ",%s", nm[j]; printf "\n"
        for (k = 0; k <= maxb; k++) {
          printf "%.10g", 2 ^ ((k + 0.5) / 8); for (j = 1; j <= n; j++) printf ",%.17g", v[j, k] / cnt[j, k]; printf "\n"
        }
      }'
  } > "$out/bound.csv.tmp"
  mv "$out/bound.csv.tmp" "$out/bound.csv"
}

gnuplot -c "$top/plots/methods_decay.gp" "$out/bound.csv" "$out/bound.png" pngcairo

echo "data:   $out/bound.csv (and one decay CSV per method in $out)"
echo "figure: $out/bound.png"
