# extrapolate.gp: the panels of `ropelab extrapolate` from its tidy
# table (columns scheme,method,scale,window,sinks,measure,stat,len,r,pair,
# value,se; several runs' tables concatenated are fine), one per measure
# the table holds, lettered in this order (a table without a measure has
# no panel for it: ropelab report measures unseen and retrieval only):
#   (a) retrieval: attention probability on a planted key equal to the
#       query against its distance r, at the longest length N;
#   (b) entropy of the last query's attention against the length n, with
#       ln n (uniform attention) dotted;
#   (c) unseen: the fraction of causal query-key pairs whose positional
#       input never occurred within L, against n;
#   (d) shift: the KS distance between positional logits past L and within
#       L at N, one bar per series.
# A series is a scheme, with its method for rope and rope2d, its logit
# scale and local window when not none; one colour each, the same in every
# panel, listed once in the key on the right.  In (b) and (c), series
# whose curves coincide are drawn once and named under the key.  L and N from the metadata
# (train_len, eval_len).
# usage: gnuplot -c extrapolate.gp DATA.csv OUT.{png,svg,pdf} [TERMINAL]

data = ARG1
out = ARG2
term = ARG3
# the measures present: rows of each
count(m) = int(system(sprintf("awk -F, '!/^#/ && $6 == \"%s\" { n++ } END { print n + 0 }' '%s'", m, ARG1)))
has_ret = count("retrieval") > 0
has_ent = count("entropy") > 0
has_uns = count("unseen") > 0
has_sft = count("shift") > 0
np = has_ret + has_ent + has_uns + has_sft
# two rows of two for four panels, else one row
prow = np == 4 ? 2 : 1
pcol = np == 4 ? 2 : (np > 0 ? np : 1)
W = np <= 1 ? 1000 : 1500
H = prow == 2 ? 1000 : 600
load system(sprintf("dirname '%s'", ARG0)) . "/common.gp"
if (np == 0) { print "extrapolate.gp: no rows of retrieval, entropy, unseen or shift in ", data; exit status 1 }
letter = 0
# a panel's title wrapped at blanks to the panel's width (about 7 px a
# character at 11 pt; with three panels in a row the entropy panel's
# title ran into the unseen panel's); three in a row leave room above
# for three lines of it
pchars = int(((0.80 - 90.0 / W) - 0.07 * (pcol - 1)) / pcol * W / 7.0)
lastsp(s, k) = k <= 1 ? 0 : (s[k:k] eq " " ? k : lastsp(s, k - 1))
wrapw(s, n) = strlen(s) <= n ? s : (wk = lastsp(s, n + 1), wk <= 1 ? s : s[1:wk - 1] . "\n" . wrapw(s[wk + 1:], n))
panel(t) = wrapw(sprintf("(%s) %s", "abcd"[letter:letter], t), pchars)

L = real(meta("train_len"))
N = real(meta("eval_len"))
if (N <= 0) { N = real(system(sprintf("awk -F, '!/^#/ && $1 != \"scheme\" && $8 + 0 > m { m = $8 + 0 } END { print m + 0 }' '%s'", data))) }
# the series key of a row, without blanks (gnuplot's word() splits on them)
key = "function k() { s = $1; if ($1 ~ /^rope/) s = s \"/\" $2; if ($3 != \"none\" && $3 != \"\") s = s \":\" $3; if ($4 + 0 > 0) s = s \"@w\" $4 \"+\" $5; return s }"
series = system(sprintf("awk -F, '%s !/^#/ && $1 != \"scheme\" { s = k(); if (!(s in seen)) { seen[s] = 1; printf \"%%s \", s } }' '%s'", key, data))
ns = words(series)
if (ns == 0) { print "extrapolate.gp: no rows in ", data; exit status 1 }
# rows of series s, measure m, stat st: "x value" (x = column xc), cond an awk condition
rows(s, m, st, xc, cond) = sprintf("< awk -F, '%s !/^#/ && $1 != \"scheme\" && k() == \"%s\" && $6 == \"%s\" && $7 == \"%s\" && (%s) { print $%d, $11 }' '%s' | sort -g", key, s, m, st, cond, xc, data)

# the series of one measure grouped where their curves cannot be told
# apart: the same x values and every |difference| <= tol (0.4% of the
# panel's y span, under a line's width): "A=B=C D ...", in series order.
# Panels (b) and (c) draw one curve per group and name its members in a
# note, so the key never lists a curve the panel does not show.
grp(m, st, cond, tol) = system(sprintf("awk -F, '%s !/^#/ && $1 != \"scheme\" && $6 == \"%s\" && $7 == \"%s\" && (%s) { s = k(); if (!(s in nx)) o[++n] = s; nx[s]++; v[s, $8] = $11; xs[s] = xs[s] \" \" $8 } \
  function near(a, b,   i, c, x, d) { if (xs[a] != xs[b]) return 0; c = split(xs[a], x, \" \"); for (i = 1; i <= c; i++) { d = v[a, x[i]] - v[b, x[i]]; if (d > %g || -d > %g) return 0 } return 1 } \
  END { for (i = 1; i <= n; i++) { if (o[i] in used) continue; g = o[i]; for (j = i + 1; j <= n; j++) if (!(o[j] in used) && near(o[i], o[j])) { g = g \"=\" o[j]; used[o[j]] = 1 } printf \"%%s \", g } }' '%s'", key, m, st, cond, tol, tol, data))
lead(w) = strstrt(w, "=") > 0 ? w[1:strstrt(w, "=") - 1] : w
sidx(s) = sum [i = 1:ns] (word(series, i) eq s ? i : 0)
# the note: the groups of more than one, their first member (whose colour
# the curve has) then "= B" a line each; in the key's column under the
# key, where it covers no curve
note(G) = system(sprintf("echo '%s' | tr ' ' '\\n' | grep = | sed 's/=/\\n  = /g'", G))

array pal[12] = ["#000000", "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#56B4E9", "#8C6D00", "#E69F00", "#999999", "#882255", "#117733", "#44AA99"]
set datafile separator whitespace
set datafile missing "NaN"
set grid lt 1 lc rgb "#dddddd"  # "lc" alone draws no grid in gnuplot 5.4
set key at screen 0.985, screen 0.90 right top vertical Left reverse font ",9" spacing 1.05 samplen 2.5
t1 = sprintf("ropelab extrapolate: trained at L = %.0f (dashed), evaluated to N = %.0f", L, N)
if (strlen(meta("dim")) > 0) { t1 = t1 . ", d = " . meta("dim") }
if (strlen(meta("samples")) > 0) { t1 = t1 . ", " . meta("samples") . " content samples" }
# every panel the same width; the key column on the right
set multiplot layout prow, pcol title t1 font ",13" margins (90.0 / W), 0.80, (prow == 2 ? 0.11 : 0.16), (prow == 2 ? 0.92 : pcol >= 3 ? 0.80 : 0.86) spacing 0.07, 0.13
eval footer

# L as a dashed line, named in the title (a label on the plot covered
# curves or the tic at L)
set arrow 1 from first L, graph 0 to first L, graph 1 nohead dt 2 lw 1.2 lc rgb "#666666" back

set logscale x 2
if (has_ret) {
letter = letter + 1
set title panel(sprintf("retrieval at n = %.0f: attention on the planted key (mean; below 1e-8 off the axis)", N))
set xlabel "distance r of the planted key from the query  (tokens)"
set ylabel "attention probability  (no unit)"
set logscale y 10
if (term ne "table") { set format y "%.0e" }  # the table keeps 6 digits
set yrange [1e-8:2]
plot for [i = 1:ns] rows(word(series, i), "retrieval", "probability", 9, sprintf("$8 == %.0f && $9 > 0", N)) \
    using 1:2 with linespoints pt 7 ps 0.45 lw 1.6 lc rgb pal[(i - 1) % 12 + 1] \
    dt 1 + (i - 1) / 12 title word(series, i)
unset logscale y
set format y "%g"
set yrange [*:*]
}

# without the retrieval panel, the first panel drawn names the series in
# the key (curves of nothing, one per series)
keyn = has_ret ? 0 : ns
if (has_ent) {
letter = letter + 1
set title panel("attention entropy of the last query (dotted: ln n, uniform)")
set xlabel "sequence length n  (tokens)"
set ylabel "entropy (nats)"
stats sprintf("< awk -F, '!/^#/ && $6 == \"entropy\" { print $11 }' '%s'", data) using 1 nooutput
G = grp("entropy", "nats", "1", 0.004 * (STATS_max - STATS_min))
nt = note(G)
if (strlen(nt) > 0) { set label 98 panel("one curve each:\n") . nt at screen 0.83, screen 0.62 left front font ",8" }
if (keyn > 0) {
plot for [g = 1:words(G)] rows(lead(word(G, g)), "entropy", "nats", 8, "1") \
    using 1:2 with linespoints pt 7 ps 0.45 lw 1.6 lc rgb pal[(sidx(lead(word(G, g))) - 1) % 12 + 1] dt 1 + (sidx(lead(word(G, g))) - 1) / 12 notitle, \
    rows(word(series, 1), "entropy", "nats", 8, "1") using 1:(log($1)) with lines dt 3 lw 1.2 lc rgb "#777777" notitle, \
    for [i = 1:keyn] NaN with linespoints pt 7 ps 0.45 lw 1.6 lc rgb pal[(i - 1) % 12 + 1] dt 1 + (i - 1) / 12 title word(series, i)
} else {
plot for [g = 1:words(G)] rows(lead(word(G, g)), "entropy", "nats", 8, "1") \
    using 1:2 with linespoints pt 7 ps 0.45 lw 1.6 lc rgb pal[(sidx(lead(word(G, g))) - 1) % 12 + 1] dt 1 + (sidx(lead(word(G, g))) - 1) / 12 notitle, \
    rows(word(series, 1), "entropy", "nats", 8, "1") using 1:(log($1)) with lines dt 3 lw 1.2 lc rgb "#777777" notitle
}
unset label 98
keyn = 0
}

if (has_uns) {
letter = letter + 1
set title panel("unseen: pairs whose positional input never occurred within L")
set xlabel "sequence length n  (tokens)"
set ylabel "fraction of causal query-key pairs  (no unit)"
set yrange [-0.02:1.02]
G = grp("unseen", "fraction", "$10 == \"all\" || $10 == \"\"", 0.004)
nt = note(G)
if (strlen(nt) > 0) { set label 98 panel("at left, one curve each:\n") . nt at screen 0.83, screen 0.38 left front font ",8" }
if (keyn > 0) {
plot for [g = 1:words(G)] rows(lead(word(G, g)), "unseen", "fraction", 8, "$10 == \"all\" || $10 == \"\"") \
    using 1:2 with linespoints pt 7 ps 0.45 lw 1.6 lc rgb pal[(sidx(lead(word(G, g))) - 1) % 12 + 1] dt 1 + (sidx(lead(word(G, g))) - 1) / 12 notitle, \
    for [i = 1:keyn] NaN with linespoints pt 7 ps 0.45 lw 1.6 lc rgb pal[(i - 1) % 12 + 1] dt 1 + (i - 1) / 12 title word(series, i)
} else {
plot for [g = 1:words(G)] rows(lead(word(G, g)), "unseen", "fraction", 8, "$10 == \"all\" || $10 == \"\"") \
    using 1:2 with linespoints pt 7 ps 0.45 lw 1.6 lc rgb pal[(sidx(lead(word(G, g))) - 1) % 12 + 1] dt 1 + (sidx(lead(word(G, g))) - 1) / 12 notitle
}
unset label 98
set yrange [*:*]
keyn = 0
}

if (has_sft) {
letter = letter + 1
unset arrow 1
unset logscale x
set title panel(sprintf("shift at n = %.0f: KS distance of positional logits past L vs within L", N))
set xlabel ""
set ylabel "KS distance sup |F_past - F_within|  (no unit)"
set yrange [0:1]
set xrange [0:ns + 1]
set xtics rotate by -35 font ",8" ()
do for [i = 1:ns] { set xtics add (word(series, i) i) }
set boxwidth 0.7
set style fill solid 0.85 border -1
if (keyn > 0) {
plot for [i = 1:ns] rows(word(series, i), "shift", "ks", 8, "1") using (i):2 with boxes lc rgb pal[(i - 1) % 12 + 1] notitle, \
    for [i = 1:keyn] NaN with linespoints pt 7 ps 0.45 lw 1.6 lc rgb pal[(i - 1) % 12 + 1] dt 1 + (i - 1) / 12 title word(series, i)
} else {
plot for [i = 1:ns] rows(word(series, i), "shift", "ks", 8, "1") using (i):2 with boxes lc rgb pal[(i - 1) % 12 + 1] notitle
}
}
unset multiplot
