# decay --measure bound,mc --plot draws every Monte Carlo column, by exact
# name, each kind of quantity in its own panel: the bound; the k = q
# logit (mean with a +-2 se band and its closed form); the independent
# logit (mean, band, expectation 0); the ratio abel_max.  A stand-in
# gnuplot on PATH runs the real one on ropelab's script with the "table"
# terminal (drawn points as text, one "Curve 0 of N" per panel).
# Expected values are read by awk from the CSV by column name: a curve
# titled NAME is column NAME, a band is mean -+ 2 se of the curve after
# it; the table has 6 significant digits, so 1e-5 relative (+ 1e-12).
real=$(command -v gnuplot) || { echo "no gnuplot" >&2; exit 77; }
mkdir bin
cat > bin/gnuplot <<EOF2
#!/bin/sh
# called as: gnuplot -c SCRIPT DATA IMAGE TERMINAL
"$real" -c "\$2" "\$3" "$PWD/plot.table" table 2>/dev/null && echo table > "\$4"
EOF2
chmod +x bin/gnuplot
PATH=$PWD/bin:$PATH
"$ROPELAB" decay --measure bound,mc --to 5 --samples 50 -o d.csv --plot d.png || exit 1
awk '
  function near(a, b,   d, m) { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; return d <= 1e-5 * m + 1e-12 }
  FNR == NR { if (/^#/) next; n = split($0, c, ",")
              if (!hdr) { for (i = 1; i <= n; i++) idx[c[i]] = i; hdr = 1; next }
              for (i = 1; i <= n; i++) v[c[1], i] = c[i]; next }
  /^# Curve 0 of/ { panel++; line[panel] = "" }
  /^# Curve title:/ { t = $0; sub(/^# Curve title: "/, "", t); sub(/"$/, "", t)
                      line[panel] = line[panel] (line[panel] == "" ? "" : " | ") t
                      name = t; sub(/ .*/, "", name); k++; title[k] = name; next }
  /^[-0-9 ]/ && NF >= 3 { pts[k] = pts[k] + 1; x[k, pts[k]] = $1; a[k, pts[k]] = $2; b[k, pts[k]] = (NF == 4 ? $3 : "") }
  END {
    for (p = 1; p <= panel; p++) printf "panel %d: %s\n", p, line[p]
    for (j = 1; j <= k; j++) {
      nm = title[j]
      if (nm == "mean") {            # a band: mean -+ 2 se of the next curve
        m = title[j + 1]; se = m; sub(/_mean$/, "_se", se)
        for (q = 1; q <= pts[j]; q++) {
          mu = v[x[j, q], idx[m]]; s = v[x[j, q], idx[se]]; checked += 2
          if (!near(a[j, q], mu - 2 * s) || !near(b[j, q], mu + 2 * s)) wrong++
        }
      } else if (nm == "expectation") {
        for (q = 1; q <= pts[j]; q++) { checked++; if (a[j, q] != 0) wrong++ }
      } else {
        if (!(nm in idx)) { print "no column " nm; wrong++; continue }
        for (q = 1; q <= pts[j]; q++) { checked++; if (!near(a[j, q], v[x[j, q], idx[nm]])) wrong++ }
      }
    }
    printf "%d values checked, %d wrong\n", checked, wrong + 0
  }' d.csv plot.table
