# heatmap.gp: draw a `ropelab matrix` CSV as a heatmap.
# usage: gnuplot -c heatmap.gp DATA.csv OUT.{png,svg,pdf} [TERMINAL]
# DATA is --format grid (n rows of n values: row = query position i,
# column = key position j) or --format long (i,j,<terms>; the first term
# column is drawn).  The metadata lines give the scheme and term.

data = ARG1
out = ARG2
term = ARG3
if (strlen(term) == 0) {
    ext = out[strlen(out)-2:]
    term = (ext eq "png") ? "pngcairo" : (ext eq "svg") ? "svg" : (ext eq "pdf") ? "pdfcairo" : ""
    if (strlen(term) == 0) { print "heatmap.gp: OUT must end in .png, .svg or .pdf"; exit status 1 }
}
if (term eq "pngcairo") { set terminal pngcairo size 720,640 noenhanced font ",11" }
if (term eq "svg")      { set terminal svg size 720,640 noenhanced dynamic font ",11" }
if (term eq "pdfcairo") { set terminal pdfcairo size 5in,4.5in noenhanced font ",10" }
set output out

meta(k) = system(sprintf("sed -n 's/^# %s=//p' '%s' | head -n 1", k, data))
scheme = meta("scheme")
what = meta("term")
format = meta("format")
offset = meta("offset")
off = strlen(offset) > 0 ? real(offset) : 0

set datafile separator comma
set datafile commentschars "#"
set title sprintf("%s: %s logit, query i (rows) x key j (columns)", scheme, what)
set xlabel "key position j"
set ylabel "query position i"
set yrange [*:*] reverse
set size ratio -1
set palette defined (0 "#2166ac", 1 "#f7f7f7", 2 "#b2182b")
set cbrange [*:*]
set autoscale xfix
set autoscale yfix
if (format eq "long") {
    plot data every ::1 using 1:2:3 with image notitle
} else {
    plot data matrix using ($1 + off):($2 + off):3 with image notitle
}
unset output
