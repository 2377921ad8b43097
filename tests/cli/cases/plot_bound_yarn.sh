# bound yarn --plot: a non-empty PNG; the ramp the figure computes from
# the table's correction range (plots/bound_yarn.gp) against the one the
# core applies to the frequencies, read from `freqs --method yarn` (a
# separate code path, src/core/schedules/yarn.c): gamma_i = (ratio_i -
# 1/s) / (1 - 1/s), s = 8, d 128, base 10000, L 4096.  Through a stand-in
# gnuplot running the real one with the "table" terminal: curve 1 is the
# code ramp on the rounded range (freqs --truncate yes), curve 2 on the
# unrounded one (--truncate no); with --ramp paper, curve 1 is the paper's
# ramp (freqs --ramp paper).  The table prints 6 significant digits:
# 1e-5 absolute on gamma in [0, 1].  Past 6 lengths the figure is the
# range against L: its curves' titles.
real=$(command -v gnuplot) || { echo "no gnuplot" >&2; exit 77; }
"$ROPELAB" bound yarn --factor 8 --plot y.png > /dev/null || exit 1
test -s y.png && head -c 4 y.png | od -An -c | tr -s ' ' | sed 's/^ //'
mkdir bin
cat > bin/gnuplot <<EOF2
#!/bin/sh
"$real" -c "\$2" "\$3" "$PWD/\$(basename "\$4" | sed 's/\.png.*//').table" table && echo table > "\$4"
EOF2
chmod +x bin/gnuplot
f="--method yarn --dim 128 --base 10000 --train-len 4096 --factor 8"
# shellcheck disable=SC2086
{ "$ROPELAB" freqs $f --truncate yes -o yes.csv && "$ROPELAB" freqs $f --truncate no -o no.csv &&
  "$ROPELAB" freqs $f --ramp paper -o paper.csv; } || exit 1
PATH=$PWD/bin:$PATH
"$ROPELAB" bound yarn --factor 8 --plot code.png > /dev/null || exit 1
"$ROPELAB" bound yarn --factor 8 --ramp paper --plot paper.png > /dev/null || exit 1
"$ROPELAB" bound yarn --factor 8 --len 256:16384:x2 --plot range.png > /dev/null || exit 1
cmp() { # FREQS.csv TABLE CURVE
  awk -v want="$3" -F, 'FNR == NR { if ($0 !~ /^#/ && $1 != "pair") g[$1 + 0] = ($4 - 1/8) / (1 - 1/8); next }
    /^# Curve [0-9]/ { c++ } c == want && /^ *[-0-9]/ { split($0, a, " "); n++; d = a[2] - g[a[1] + 0]
      if (d < 0) d = -d; if (d > 1e-5) bad++ }
    END { printf "%s, curve %d: %d pairs, %d off\n", FILENAME, want, n, bad }' "$1" "$2"
}
cmp yes.csv code.table 1
cmp no.csv code.table 2
cmp paper.csv paper.table 1
grep '^# Curve title' code.table paper.table range.table
