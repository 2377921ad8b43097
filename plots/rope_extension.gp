# rope_extension.gp: exact match against the test length for one trained
# rope model scored under context-extension methods applied after
# training ('ropelab evaluate CKPT --method M,... --factor F,...', its
# tidy table: method,factor,...,len,in_dist,exact,...).  A panel per
# factor, a curve per method, plain rope (the training schedule, the
# rows of --method rope, factor empty) in black in every panel, the
# training length L dashed.
# usage: gnuplot -c rope_extension.gp TABLE.csv L OUT.{png,svg,pdf} [TERMINAL]
data = ARG1
L = real(ARG2)
out = ARG3
term = ARG4
col(name) = sprintf("awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next } %s' '%s'", name, data)
factors = system(col("{ if ($c[\"method\"] != \"rope\" && !($c[\"factor\"] in s)) { s[$c[\"factor\"]] = 1; printf \"%s \", $c[\"factor\"] } }"))
methods = system(col("{ if ($c[\"method\"] != \"rope\" && !($c[\"method\"] in s)) { s[$c[\"method\"]] = 1; printf \"%s \", $c[\"method\"] } }"))
nf = words(factors)
nm = words(methods)
rows(m, f) = "< " . col(sprintf("$c[\"method\"] == \"%s\" && $c[\"factor\"] == \"%s\" && !seen[$c[\"len\"]]++ { print $c[\"len\"], $c[\"exact\"] }", m, f))
label(m) = m eq "linear" ? "PI (linear)" : m eq "ntk" ? "NTK" : m eq "yarn" ? "YaRN" : m eq "dynamic" ? "dynamic NTK" : m
array pal[6] = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"]
W = 550 * nf + 150
H = 480
FS = 10
load system(sprintf("dirname '%s'", ARG0)) . "/term.gp"
set datafile separator whitespace
set multiplot layout 1, nf title sprintf("RoPE trained on copy at L = %g, re-scored after training", L)
set grid lt 1 lc rgb "#dddddd"
set xlabel "test length n  (tokens)"
set yrange [-0.02:1.02]
set key top right font ",9"
do for [j = 1:nf] {
  f = word(factors, j)
  set title sprintf("factor %s", f)
  if (j == 1) { set ylabel "exact match  (fraction of examples)" } else { unset ylabel }
  set arrow 1 from L, graph 0 to L, graph 1 nohead dt 2 lc rgb "#555555"
  set label 1 sprintf("L = %g", L) at L, graph 0.5 right offset -0.5, 0 font ",9"
  plot rows("rope", "") using 1:2 with linespoints pt 7 ps 0.5 lw 2 lc rgb "#000000" title "rope (as trained)", \
       for [i = 1:nm] rows(word(methods, i), f) using 1:2 with linespoints pt 7 ps 0.5 lw 1.5 lc rgb pal[i] title label(word(methods, i))
}
unset multiplot
eval term_end
