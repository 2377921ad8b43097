# bound pi --plot: a non-empty PNG and SVG; the SVG's title names d and
# base, and the key the ratio 2 * 32 ln base, by hand for base 500:
# 64 ln 500 = 64 * 6.2146081 = 397.73 (4 significant digits: 397.7).
# A stand-in gnuplot runs the real one with the "table" terminal: the
# curve drawn is the CSV's b_over_d against s (6 significant digits in
# the table: 1e-5 relative), the line B(s) = d is 1.
real=$(command -v gnuplot) || { echo "no gnuplot" >&2; exit 77; }
"$ROPELAB" bound pi --dim 64 --base 500 --to 256 --plot p.png > /dev/null || exit 1
"$ROPELAB" bound pi --dim 64 --base 500 --to 256 --plot p.svg > p.csv || exit 1
test -s p.png && head -c 4 p.png | od -An -c | tr -s ' ' | sed 's/^ //'
grep -o 'Fig. 5: B(s)/d, d = 64, base = 500' p.svg
grep -o 'ratio 2 · 32 ln base = [0-9.]*' p.svg
mkdir bin
cat > bin/gnuplot <<EOF2
#!/bin/sh
"$real" -c "\$2" "\$3" "$PWD/t.table" table && echo table > "\$4"
EOF2
chmod +x bin/gnuplot
PATH=$PWD/bin:$PATH "$ROPELAB" bound pi --dim 64 --base 500 --to 256 --plot t.png -o t.csv || exit 1
awk -F, 'FNR == NR { if ($0 !~ /^#/ && $1 != "dim") v[$5 + 0] = $6; next }
  /^# Curve [0-9]/ { c++ } /^ *[-0-9]/ { split($0, a, " "); n[c]++; want = c == 1 ? v[a[1] + 0] : 1
    d = a[2] - want; if (d < 0) d = -d
    if (d > 1e-5 * want) bad[c]++ }
  END { for (k = 1; k <= c; k++) printf "curve %d: %d points, %d off\n", k, n[k], bad[k] }' t.csv t.table
