# matrix --plot draws grid and long the same way round: key j across (x),
# query i down (y), offset included.  A stand-in gnuplot on PATH runs the
# real one on ropelab's script with the "table" terminal, which writes
# each drawn cell as "x y value" instead of an image.  Expected: the value
# at x = offset + j, y = offset + i is the CSV's row i, column j (grid:
# row i of the grid; long: the line i,j), read by awk from the CSV itself
# (its semantics: rows = query i, columns = key j).  The table prints 6
# significant digits, so values agree to 1e-5 relative (plus 1e-12).
# The matrix is checked to be asymmetric, so a transpose cannot pass.
. "$(dirname "$0")/../table_gnuplot.sh"
for f in grid long; do
  "$ROPELAB" matrix --scheme rope --dim 4 --len 4 --offset 5 --term total --format $f \
    -o $f.csv --plot $f.png || exit 1
done
# grid.csv: n rows of n values; v[i,j]
awk -F, '!/^#/ { for (j = 1; j <= NF; j++) v[n, j - 1] = $j; n++ }
  END { a = 0; for (i = 0; i < n; i++) for (j = 0; j < n; j++)
          if (v[i, j] - v[j, i] > 1e-3 || v[j, i] - v[i, j] > 1e-3) a = 1
        print (a ? "asymmetric" : "symmetric") }' grid.csv
for f in grid long; do
  awk -v off=5 '
    FNR == NR { if ($0 !~ /^#/ && $0 !~ /^i,/) { n = split($0, c, ",");
                  if (n == 3) v[c[1] - off, c[2] - off] = c[3];
                  else { for (j = 1; j <= n; j++) v[row + 0, j - 1] = c[j]; row++ } } next }
    /^ *[-0-9]/ { x = $1 - off; y = $2 - off; want = v[y, x]; d = $3 - want; if (d < 0) d = -d;
                  m = want < 0 ? -want : want; if (d > 1e-5 * m + 1e-12) bad++; cells++ }
    END { printf "%s: %d cells, %d misplaced\n", FILENAME, cells, bad }' $f.csv $f.table
done
