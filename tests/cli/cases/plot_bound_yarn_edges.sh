# bound yarn --plot where the correction range leaves [0, rot - 1]: the
# ramp drawn must be the one the core applies (freqs --method yarn, a
# separate code path, src/core/schedules/yarn.c), gamma_i = (ratio_i -
# 1/s) / (1 - 1/s), s = 8, d 128, base 10000; 1e-5 absolute (the table
# terminal's 6 digits).  By hand (low/high = 128 ln(L / (2 pi beta)) /
# (2 ln 10000)):
#   L = 4: low_exact -27.2, high_exact -3.14, used 0 .. -3 (high < low):
#     hf (and vLLM) divide by high - low = -3: every gamma 1, every pair
#     kept; ggml divides by max(0.001, -3): pair 0 kept, the rest 0.
#   L = 64: low_exact -7.95, high_exact 16.13: --truncate no uses
#     0 .. 16.13 (clamped), not -7.95 .. 16.13 (gamma at pair 8 is
#     1 - 8/16.13 = 0.504, not 1 - 15.95/24.08 = 0.338).
#   L = 1e9: high_exact 131.2 clamped to 127.
# curve 2 of a --truncate yes figure is the unrounded (--truncate no) one.
real=$(command -v gnuplot) || { echo "no gnuplot" >&2; exit 77; }
mkdir bin
cat > bin/gnuplot <<EOF2
#!/bin/sh
"$real" -c "\$2" "\$3" "$PWD/\$(basename "\$4" | sed 's/\.png.*//').table" table && echo table > "\$4"
EOF2
chmod +x bin/gnuplot
cmp() { # FREQS.csv TABLE CURVE
  awk -v want="$3" -F, 'FNR == NR { if ($0 !~ /^#/ && $1 != "pair") g[$1 + 0] = ($4 - 1/8) / (1 - 1/8); next }
    /^# Curve [0-9]/ { c++ } c == want && /^ *[-0-9]/ { split($0, a, " "); n++; d = a[2] - g[a[1] + 0]
      if (d < 0) d = -d; if (d > 1e-5) bad++ }
    END { printf "%s, curve %d: %d pairs, %d off\n", FILENAME, want, n, bad }' "$1" "$2"
}
f="--method yarn --dim 128 --base 10000 --factor 8"
for run in "4 hf yes" "4 ggml yes" "64 hf yes" "64 hf no" "1e9 hf yes" "1e9 hf no"; do
  set -- $run
  name=L$1-$2-$3
  # shellcheck disable=SC2086
  { "$ROPELAB" freqs $f --train-len $1 --variant $2 --truncate $3 -o $name.csv &&
    "$ROPELAB" freqs $f --train-len $1 --truncate no -o L$1-unrounded.csv; } || exit 1
  PATH=$PWD/bin:$PATH "$ROPELAB" bound yarn --factor 8 --len $1 --variant $2 --truncate $3 \
    --plot $name.png > /dev/null || exit 1
  cmp $name.csv $name.table 1
  if [ $2 = hf ] && [ $3 = yes ]; then cmp L$1-unrounded.csv $name.table 2; fi
done
