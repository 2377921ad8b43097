# extrapolate --plot draws its four panels from its own table: through a
# stand-in gnuplot with the "table" terminal, panel (a) holds one curve
# per series (scheme, with its method for rope) whose points are the CSV's
# retrieval rows at n = N with r > 0 (awk on the CSV; 6 digits, 1e-5
# relative), in the order series first occur; (b) one curve per group of
# series that cannot be told apart, plus ln n: 3, since rope/rope and
# rope/linear are one group (a rotation keeps |q|, so under the logits'
# law every random key's logit is |x| z / sqrt(d) with the slot's normal
# z in both methods: the same entropies to rounding; alibi's bias is
# another curve); (d) one bar per series.
# Panel (c) draws one curve per group: alibi and rope/rope see the same
# relative positions, so both leave unseen exactly the pairs at distance
# >= L, (n-L)(n-L+1)/2 of the n(n+1)/2 causal pairs (by hand: n = 32,
# L = 16: 136/528 = 0.257576; n = 64: 1176/2080 = 0.565385; 0 for n <= L),
# one curve; rope/linear (0.0029 at n = 64, over 0.004 from it) another.
. "$(dirname "$0")/../table_gnuplot.sh"
"$ROPELAB" extrapolate --train-len 16 --eval-len 64 --dim 8 --samples 4 --scheme alibi,rope \
  --method rope,linear --distances 0,1,4,16,63 -o x.csv --plot x.png 2>/dev/null || exit 1
# wanted: per series (scheme/method for rope), "r:value" of retrieval probability at len 64
awk -F, '!/^#/ && $1 != "scheme" && $6 == "retrieval" && $7 == "probability" && $8 == 64 && $9 > 0 {
    s = $1 ($1 ~ /^rope/ ? "/" $2 : ""); if (!(s in seen)) { seen[s] = 1; order[n++] = s }
    p[s] = p[s] " " $9 ":" $11 }
  END { for (i = 0; i < n; i++) print order[i] p[order[i]] }' x.csv > want
# drawn: the curves of the first panel (the first curves with a title)
awk '/^# Curve 0 of/ { panel++ } /^# Curve title/ && panel == 1 { c++; t[c] = $4 }
  /^ *[0-9]/ && panel == 1 { p[c] = p[c] " " $1 ":" $2 }
  END { for (i = 1; i <= c; i++) { gsub(/"/, "", t[i]); print t[i] p[i] } }' x.table > got
paste -d'#' want got | awk -F'#' '{ n = split($1, a, " "); m = split($2, b, " ")
  bad = (a[1] != b[1]) || (n != m); for (i = 2; i <= n && !bad; i++) { split(a[i], u, ":"); split(b[i], v, ":")
    if (u[1] != v[1] || (u[2] - v[2]) ^ 2 > (1e-5 * u[2]) ^ 2 + 1e-30) bad = 1 }
  print a[1] (bad ? " DIFFERS" : " same") }'
echo "curves per panel:" $(sed -n 's/^# Curve 0 of \([0-9]*\),.*/\1/p' x.table)
awk '/^# Curve 0 of/ { panel++ } /^# Curve [0-9]+ of/ { c = $3 } panel == 3 && c == 0 && /^ *[0-9]/ { l = l (l == "" ? "" : " ") $1 ":" $2 } END { print l }' x.table
