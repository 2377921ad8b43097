#!/bin/sh
# methods_ratio.sh [OUTDIR]: each context-extension method's frequency
# ratio theta_i / theta_i^RoPE against the pair index i, for Llama 2's
# head (d = 128, base 10000, trained at L = 4096) stretched by s = 8:
# linear (position interpolation), static NTK, YaRN with the code's and
# the paper's ramp, Llama 3.1's bands (here with L = 4096), dynamic NTK
# (hf) at N = 32768 and p-RoPE with p = 0.75.  One `ropelab freqs` CSV per
# method (<method>.csv), their ratio columns side by side in ratio.csv,
# and the figure ratio.png (plots/methods_ratio.gp).  OUTDIR defaults to
# out/methods_ratio.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/out/methods_ratio}

"$top/experiments/setup.sh" "$top/build"
ropelab=$top/build/src/ropelab

mkdir -p "$out"
common="--dim 128 --base 10000 --train-len 4096"
# name|label for the key|ropelab options
runs="linear|linear (PI), s = 8|--method linear --factor 8
ntk|NTK-aware (static), s = 8|--method ntk --factor 8
yarn-code|YaRN, code ramp (hf, truncate)|--method yarn --factor 8
yarn-paper|YaRN, paper ramp (linear in L/lambda)|--method yarn --factor 8 --ramp paper
llama3|llama3, L = 4096, low 1, high 4|--method llama3 --factor 8 --low-freq-factor 1 --high-freq-factor 4
dynamic|dynamic NTK (hf), N = 32768|--method dynamic --factor 8 --seq-len 32768 --variant hf
p-rope|p-RoPE, p = 0.75|--method p-rope --fraction 0.75"


printf '%s\n' "$runs" | {
  names='' meta=''
  while IFS='|' read -r name label opts; do
    # shellcheck disable=SC2086
    "$ropelab" freqs $common $opts -o "$out/$name.csv"
    names="$names $name"
    meta="$meta# series.$name=$label
"
  done
  # ratio.csv: pair, then each method's ratio column; labels as metadata.
  {
    printf '# experiment=methods_ratio: d = 128, base 10000, L = 4096, s = 8\n'
    printf '%s' "$meta"
    awk -F, -v names="$names" -v dir="$out" '
      BEGIN { n = split(names, nm, " "); for (j = 1; j <= n; j++) ARGV[j] = dir "/" nm[j] ".csv"; ARGC = n + 1 }
      FNR == 1 { f++; hdr = 0 }
      /^#/ { next }
      !hdr { hdr = 1; for (i = 1; i <= NF; i++) if ($i == "ratio") c[f] = i; next }
      { pair[$1] = 1; v[f, $1] = $(c[f]); if ($1 + 0 > maxp) maxp = $1 + 0 }
      END {
        n = split(names, nm, " ")
        printf "pair"; for (j = 1; j <= n; j++) printf ",%s", nm[j]; printf "\n"
        for (p = 0; p <= maxp; p++) {
          printf "%d", p; for (j = 1; j <= n; j++) printf ",%s", v[j, p]; printf "\n"
        }
      }'
  } > "$out/ratio.csv.tmp"
  mv "$out/ratio.csv.tmp" "$out/ratio.csv"
}

gnuplot -c "$top/plots/methods_ratio.gp" "$out/ratio.csv" "$out/ratio.png" pngcairo

echo "data:   $out/ratio.csv (and one freqs CSV per method in $out)"
echo "figure: $out/ratio.png"
