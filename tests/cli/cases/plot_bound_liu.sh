# bound liu --plot: a non-empty PNG; through a stand-in gnuplot running
# the real one with the "table" terminal, the step curve of the critical
# dimension at T_train = 512, 4096 (d 128, base 10000), by hand:
# 64 log_10000(512/2pi) = 16 log10(81.49) = 30.58 -> 2*31 = 62,
# 64 log_10000(4096/2pi) = 16 log10(651.9) = 45.03 -> 2*46 = 92 (the
# paper's LLaMA 2 value), and the paper's point (4096, 92) as its own
# curve.  Between the two rows the figure draws eq. 13 itself: h =
# 16 log10(T/2pi) runs from 30.58 to 45.03, so ceil(h) takes every value
# 31..46 and d_extra every even value 62..92 (16 of them), not 62 up to
# 4096 and then 92 as a step through the rows alone would show.  The SVG's key has the LLaMA 2 point for base 10000 only, and
# the extrapolation-limit panel only with a fine-tuning setting.
real=$(command -v gnuplot) || { echo "no gnuplot" >&2; exit 77; }
"$ROPELAB" bound liu --len 512,4096 --plot l.png > /dev/null || exit 1
test -s l.png && head -c 4 l.png | od -An -c | tr -s ' ' | sed 's/^ //'
mkdir bin
cat > bin/gnuplot <<EOF2
#!/bin/sh
"$real" -c "\$2" "\$3" "$PWD/t.table" table && echo table > "\$4"
EOF2
chmod +x bin/gnuplot
PATH=$PWD/bin:$PATH "$ROPELAB" bound liu --len 512,4096 --plot t.png > /dev/null || exit 1
awk '/^# Curve [0-9]/ { c++ } /^# Curve title/ { print }
  /^ *[-0-9]/ && c != 2 { print "curve " c ": " $1, $2 }
  /^ *[-0-9]/ && c == 2 { n++; if (n == 1) lo = $1; hi = $1; if (!($2 in v)) { v[$2] = 1; vals = vals " " $2 }
    if ($2 < prev) down++; prev = $2 }
  END { printf "curve 2: %d samples from %s to %s, %d decreasing, values%s\n", n, lo, hi, down, vals }' t.table
for b in 10000 500; do
  "$ROPELAB" bound liu --base $b --len 512,4096 --plot b$b.svg > /dev/null || exit 1
  echo "base $b: LLaMA 2 point $(grep -c 'LLaMA 2: 92 at 4096' b$b.svg)"
done
"$ROPELAB" bound liu --len 512,4096 --tune-len 65536 --plot tune.svg > /dev/null || exit 1
echo "extrapolation panel: tuned $(grep -c 'extrapolation limit (tokens' tune.svg), plain $(grep -c 'extrapolation limit (tokens' b10000.svg)"
