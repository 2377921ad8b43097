# precision.gp: plot a `ropelab precision --by position` CSV: one panel per
# pipeline, its worst errors against the exact values per bin of positions
# (cos/sin entry, rotation angle, logit at the fixed distance) against the
# position, log-log.
# usage: gnuplot -c precision.gp DATA.csv OUT.{png,svg,pdf} [TERMINAL]

data = ARG1
out = ARG2
term = ARG3
if (strlen(term) == 0) {
    ext = out[strlen(out)-2:]
    term = (ext eq "png") ? "pngcairo" : (ext eq "svg") ? "svg" : (ext eq "pdf") ? "pdfcairo" : ""
    if (strlen(term) == 0) { print "precision.gp: OUT must end in .png, .svg or .pdf"; exit status 1 }
}
pipes = system(sprintf("awk -F, '!/^#/ && NR > 1 && $1 != \"precision\" && !s[$1]++ { printf \"%%s \", $1 }' '%s'", data))
np = words(pipes)
if (np == 0) { print "precision.gp: no rows"; exit status 1 }
cols = (np >= 4) ? 4 : np
rows = int((np + cols - 1) / cols)
w = 400 * cols
h = 320 * rows + 60
if (term eq "pngcairo") { set terminal pngcairo size w,h noenhanced font ",10" }
if (term eq "svg")      { set terminal svg size w,h noenhanced dynamic font ",10" }
if (term eq "pdfcairo") { set terminal pdfcairo size (w/100.0)*0.8,(h/100.0)*0.8 noenhanced font ",8" }
set output out

dim = system(sprintf("sed -n 's/^# dim=//p' '%s' | head -n 1", data))
base = system(sprintf("sed -n 's/^# base=//p' '%s' | head -n 1", data))
method = system(sprintf("sed -n 's/^# method=//p' '%s' | head -n 1", data))
dist = system(sprintf("sed -n 's/^# distance=//p' '%s' | head -n 1", data))
sample = system(sprintf("sed -n 's/^# sample=//p' '%s' | head -n 1", data))

set datafile separator comma
set datafile commentschars "#"
set logscale xy
set format y "1e%T"
set format x "%.0s%c"
set grid
set key top left font ",9"
set xlabel "position m (worst over each bin)"
set ylabel "absolute error vs exact"
# four empty decades above 1 keep the key clear of the curves, which reach
# 1e-2 in the bfloat16 panels; tick labels stop at 1
set yrange [1e-16:1e4]
set ytics 1e-16,100,1
set multiplot layout rows,cols title sprintf("RoPE precision envelope: %s, d = %s, base = %s; worst error per bin of positions (%s positions), logit at distance r = %s", method, dim, base, sample eq "all" ? "all" : "log-spaced", dist)
do for [k=1:np] {
    p = word(pipes, k)
    set title p
    plot data using (stringcolumn(1) eq p && $3 > 0 ? $3 : NaN):(($4 > $5 ? $4 : $5) > 0 ? ($4 > $5 ? $4 : $5) : NaN) with linespoints pt 7 ps 0.4 lw 2 lc rgb "#1f77b4" title "cos/sin entry", \
         data using (stringcolumn(1) eq p && $3 > 0 ? $3 : NaN):($6 > 0 ? $6 : NaN) with lines lw 2 dt 2 lc rgb "#2ca02c" title "angle (rad)", \
         data using (stringcolumn(1) eq p && $3 > 0 ? $3 : NaN):($7 > 0 ? $7 : NaN) with linespoints pt 5 ps 0.4 lw 2 lc rgb "#d62728" title "logit, unit-variance q.k"
}
unset multiplot
