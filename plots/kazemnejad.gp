# kazemnejad.gp: the shape of Kazemnejad et al. 2023's Figure 1 from
# experiments/kazemnejad.sh's summary (scheme,task,len,mean,min,max,seeds:
# exact match over seeds): a panel per task, a curve per scheme (the mean)
# with its min-max band over seeds, the training length L dashed.
# usage: gnuplot -c kazemnejad.gp SUMMARY.csv L OUT.{png,svg,pdf} [TERMINAL [TABLE.csv]]
# TABLE.csv, the sweep's table: the title names the model and training
# its metadata records (the settings that shape the curves).
data = ARG1
L = real(ARG2)
out = ARG3
term = ARG4
tasks = system(sprintf("awk -F, 'NR > 1 && !($2 in s) { s[$2] = 1; printf \"%%s \", $2 }' '%s'", data))
schemes = system(sprintf("awk -F, 'NR > 1 && !($1 in s) { s[$1] = 1; printf \"%%s \", $1 }' '%s'", data))
nt = words(tasks)
ns = words(schemes)
model = ""
if (ARGC >= 5 && strlen(ARG5) > 0) {
  model = system(sprintf("awk -F= 'NR > 1 && !/^#/ { exit } /^# (layers|d_model|heads|steps|lr|dtype)=/ { v[substr($1, 3)] = $2 } END { printf \"; %%s layers, d_model %%s, %%s heads, %%s steps at lr %%s%%s\", v[\"layers\"], v[\"d_model\"], v[\"heads\"], v[\"steps\"], v[\"lr\"], v[\"dtype\"] == \"\" ? \"\" : \", \" v[\"dtype\"] }' '%s'", ARG5))
}
seeds = system(sprintf("awk -F, 'NR == 2 { print $7 }' '%s'", data))
rows(s, t) = sprintf("< awk -F, '$1 == \"%s\" && $2 == \"%s\" { print $3, $4, $5, $6 }' '%s'", s, t, data)
array pal[8] = ["#000000", "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#882255"]
W = 520 * nt + 120
H = 480
FS = 10
load system(sprintf("dirname '%s'", ARG0)) . "/term.gp"
set datafile separator whitespace
set multiplot layout 1, nt title sprintf("trained on lengths 1..%g, tested to %g: exact match, mean over %s seeds (band: min-max)%s", L, 2 * L, seeds, model)
set grid lt 1 lc rgb "#dddddd"
set xlabel "test length n  (tokens)"
# the key in a band of its own above the curves, which fill the corners
set yrange [-0.02:1.25]
set ytics 0, 0.2, 1
set key top center horizontal maxrows 2 font ",9"
set style fill transparent solid 0.15 noborder
do for [j = 1:nt] {
  t = word(tasks, j)
  set title t
  if (j == 1) { set ylabel "exact match  (fraction of examples)" } else { unset ylabel }
  # up to the curves' top, 1: above it is the key's band (to the top, the
  # line ran through the key)
  set arrow 1 from L, graph 0 to L, first 1.04 nohead dt 2 lc rgb "#555555"
  plot for [i = 1:ns] rows(word(schemes, i), t) using 1:3:4 with filledcurves lc rgb pal[i] notitle, \
       for [i = 1:ns] rows(word(schemes, i), t) using 1:2 with linespoints pt 7 ps 0.5 lw 1.5 lc rgb pal[i] title word(schemes, i)
}
unset multiplot
eval term_end
