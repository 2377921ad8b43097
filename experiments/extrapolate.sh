#!/bin/sh
# extrapolate.sh [OUTDIR]: what changes past the training length, every
# scheme and the main RoPE methods on one axis each (ropelab extrapolate):
# d = 128, trained at L = 1024, evaluated up to N = 16384, 64 content
# samples from seed 1; the methods at s = N / L = 16 (YaRN's temperature
# comes with its method; log-n's query scale at each length).  A run
# with a local window (W = 512 last tokens + 4 sinks, StreamingLLM's
# cache positions) is added for rope.
# Outputs in OUTDIR (default out/extrapolate): extrapolate.csv (the tidy
# table of both runs), retrieval.csv (probability on the planted key at
# n = N against distance r), entropy.csv (entropy against n, and ln n),
# unseen.csv (unseen fraction against n), shift.csv (KS and W1 of the
# positional logits past L against within L), and extrapolate.png
# (plots/extrapolate.gp).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/out/extrapolate}
"$top/experiments/setup.sh" "$top/build"
ropelab=$top/build/src/ropelab
mkdir -p "$out"

L=1024 N=16384
common="--train-len $L --eval-len $N --dim 128 --samples 64 --seed 1 --distances 0,1:8192:x2,16383"
"$ropelab" extrapolate $common --scheme nope,sinusoidal,learned,t5,alibi,rope \
  --method rope,linear,ntk,yarn,log-n -o "$out/full.csv"
"$ropelab" extrapolate $common --scheme rope --local-window 512 --sink-tokens 4 \
  --no-meta --no-header -o "$out/window.csv"
cat "$out/full.csv" "$out/window.csv" > "$out/extrapolate.csv"
rm -f "$out/full.csv" "$out/window.csv"

# one wide CSV per panel: a column per series "scheme/method[ window]"
wide() { # measure stat x-column filter-awk-condition outfile
  awk -F, -v m="$1" -v st="$2" -v xc="$3" -v N=$N "
    /^#/ || \$1 == \"scheme\" { next }
    \$6 == m && \$7 == st && \$10 != \"\" && \$10 != \"all\" { next }
    \$6 == m && \$7 == st && ($4) {
      s = \$1 (\$1 == \"rope\" ? \"/\" \$2 : \"\") (\$4 != 0 ? \" window \" \$4 \"+\" \$5 : \"\")
      if (!(s in seen)) { seen[s] = ++ns; name[ns] = s }
      x = \$xc; if (!(x in xs)) { xs[x] = 1; nx++; xv[nx] = x }
      v[s, x] = \$11
    }
    END {
      printf \"x\"; for (j = 1; j <= ns; j++) printf \",%s\", name[j]; printf \"\\n\"
      for (i = 1; i <= nx; i++) for (k = i + 1; k <= nx; k++) if (xv[k] + 0 < xv[i] + 0) { t = xv[i]; xv[i] = xv[k]; xv[k] = t }
      for (i = 1; i <= nx; i++) {
        printf \"%s\", xv[i]
        for (j = 1; j <= ns; j++) printf \",%s\", ((name[j], xv[i]) in v) ? v[name[j], xv[i]] : \"NaN\"
        printf \"\\n\"
      }
    }" "$out/extrapolate.csv" > "$5"
}
wide retrieval probability 9 '$8 == N && $9 > 0' "$out/retrieval.csv"
wide entropy nats 8 '1' "$out/entropy.csv"
wide unseen fraction 8 '1' "$out/unseen.csv"
awk -F, '!/^#/ && $6 == "shift" && ($7 == "ks" || $7 == "w1") {
  s = $1 ($1 == "rope" ? "/" $2 : "") ($4 != 0 ? " window " $4 "+" $5 : ""); print s "," $7 "," $11 }' \
  "$out/extrapolate.csv" > "$out/shift.csv"

gnuplot -c "$top/plots/extrapolate.gp" "$out" "$out/extrapolate.png" $L $N
echo "data:   $out/extrapolate.csv" >&2
echo "figure: $out/extrapolate.png" >&2
