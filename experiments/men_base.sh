#!/bin/sh
# men_base.sh [OUTDIR]: Men et al. 2024, Figure 1 / Table 1 ("Base of RoPE
# Bounds Context Length"): the smallest RoPE base with B_r >= 0 for every
# r < L, d = 128, L = 1K..1M, by Su's staged grid (kexue.fm/archives/10122),
# with the paper's power-law fit refitted on our values (base.csv: the
# table; base.png: the figure, with the paper's and Su's published values
# for comparison; margins.txt: min B_r at 512K and 1M, exact and in the
# HF float32 pipeline).  The run's wall and CPU time go to time.txt.  The
# experiments/bounds/README.md shows base.png as experiments/figures/men_base.png.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/out/men_base}

"$top/experiments/setup.sh" "$top/build"
ropelab=$top/build/src/ropelab

mkdir -p "$out"
/usr/bin/time -f "wall %e s, user %U s, sys %S s, max RSS %M kB" -o "$out/time.txt" \
  "$ropelab" bound men --dim 128 --len 1024:1048576:x2 --fit --progress -o "$out/base.csv"
# published values (two digits): the paper's Table 1 and Su's recomputation
printf 'len,paper,su\n1024,4.3e3,4.3e3\n2048,1.6e4,1.2e4\n4096,2.7e4,2.7e4\n8192,8.4e4,8.4e4
16384,3.1e5,2.3e5\n32768,6.4e5,6.3e5\n65536,2.1e6,2.1e6\n131072,7.8e6,4.9e6
262144,3.6e7,2.4e7\n524288,6.4e7,5.8e7\n1048576,5.1e8,6.5e7\n' > "$out/published.csv"
gnuplot -c "$top/plots/men_base.gp" "$out/base.csv" "$out/published.csv" "$out/base.png"

# The margins at 512K and 1M (experiments/bounds/README.md: where we differ from Su), through a
# separate code path (decay's similarity, exact angles) and through the
# HF float32 pipeline: min B_r over r < L and the first r with B_r < 0,
# at ropelab's base and at the grid point below it.
margin() { # LEN BASE PRECISION
  "$ropelab" decay --base "$2" --measure similarity --from 0 --to $(($1 - 1)) \
    --precision "$3" --no-meta --no-header |
    awk -F, -v L="$1" -v b="$2" -v p="$3" '{ if (NR == 1 || $2 < m) { m = $2; at = $1 }
      if ($2 < 0 && f == "") f = $1 }
      END { printf "L %s base %s %-8s min B_r %.6g at r %s, first negative %s\n", L, b, p, m, at, (f == "" ? "none" : f) }'
}
for L in 524288 1048576; do
  row=$(awk -F, -v L="$L" '!/^#/ && $3 == L { print $4, $7 }' "$out/base.csv")
  for b in $row; do
    for p in exact hf-fp32; do margin "$L" "$b" "$p"; done
  done
done > "$out/margins.txt"
cat "$out/margins.txt"
cat "$out/time.txt"
echo "table:  $out/base.csv"
echo "figure: $out/base.png"
