# extrapolate.gp: the panels of experiments/extrapolate.sh from its wide
# CSVs in DIR: (a) attention probability on a planted key equal to the
# query against its distance r at n = N, (b) attention entropy against
# the length n with ln n (uniform attention) dashed, (c) the fraction of
# query-key pairs whose positional input was never seen within L.
# usage: gnuplot -c extrapolate.gp DIR OUT.png L N
dir = ARG1
out = ARG2
L = real(ARG3)
N = real(ARG4)
set terminal pngcairo size 1800,1100 noenhanced font ",10"
set output out
set datafile separator comma
set datafile missing "NaN"
set grid lt 1 lc rgb "#dddddd"  # "lc" alone draws no grid in gnuplot 5.4
set logscale x 2
set key outside right top font ",8" spacing 0.95

array col[12] = ["#000000", "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#56B4E9", "#8C6D00", "#E69F00", "#999999", "#882255", "#117733", "#44AA99"]
array dts[12] = [1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4]
hdr(f) = system(sprintf("head -n 1 '%s' | tr ',' '|'", f))
name(f, i) = system(sprintf("head -n 1 '%s' | cut -d, -f%d", f, i))
ncol(f) = int(system(sprintf("head -n 1 '%s' | awk -F, '{ print NF }'", f)))

set multiplot layout 2, 2 title sprintf("ropelab extrapolate: d = 128, trained at L = %.0f, evaluated to N = %.0f; methods at s = N/L = %.0f; identity projections, q, k ~ N(0, I), 64 samples", L, N, N / L)

set arrow 1 from first L, graph 0 to first L, graph 1 nohead dt 2 lw 1.3 lc rgb "#444444" back
set label 1 sprintf(" L = %.0f", L) at first L, graph 0.95 left tc rgb "#333333"

f = dir . "/retrieval.csv"
set title sprintf("(a) retrieval at n = %.0f: attention on one key equal to the query (mean)", N)
set xlabel "distance r of the planted key from the query"
set ylabel "attention probability on the planted key"
set logscale y 10
set format y "%.0e"
set yrange [1e-5:1.2]
plot for [i=2:ncol(f)] f using 1:i with linespoints pt 7 ps 0.5 lw 1.6 lc rgb col[(i-2)%12+1] dt dts[(i-2)%12+1] title name(f, i)
unset logscale y
set format y "%g"
set yrange [*:*]

f = dir . "/entropy.csv"
set title "(b) attention entropy of the last query (dotted: ln n, uniform)"
set xlabel "sequence length n"
set ylabel "entropy (nats)"
plot for [i=2:ncol(f)] f using 1:i with linespoints pt 7 ps 0.5 lw 1.6 lc rgb col[(i-2)%12+1] dt dts[(i-2)%12+1] title name(f, i), \
     f using 1:(log($1)) with lines dt 3 lw 1.2 lc rgb "#777777" title "ln n"

f = dir . "/unseen.csv"
set title "(c) unseen: pairs whose positional input never occurred within L"
set xlabel "sequence length n"
set ylabel "fraction of causal query-key pairs"
set yrange [-0.02:1.02]
plot for [i=2:ncol(f)] f using 1:i with linespoints pt 7 ps 0.5 lw 1.6 lc rgb col[(i-2)%12+1] dt dts[(i-2)%12+1] title name(f, i)

unset arrow 1
unset label 1
unset logscale x
set yrange [*:*]
f = dir . "/shift.csv"
set title sprintf("(d) shift at n = %.0f: KS distance, positional logits past L vs within L", N)
set style data histograms
set style fill solid 0.8 border -1
set boxwidth 0.8
set xtics rotate by -35 font ",8"
set xlabel ""
set ylabel "KS distance sup |F_past - F_within|"
set yrange [0:1]
plot "< awk -F, '$2 == \"ks\"' '" . f . "'" using 3:xtic(1) lc rgb "#0072B2" notitle
unset multiplot
unset output
