# decay.gp: plot a `ropelab decay` CSV: every column after r against r.
# usage: gnuplot -c decay.gp DATA.csv OUT.{png,svg,pdf} [TERMINAL]
# The terminal follows OUT's extension unless given (ropelab passes it,
# because it draws into a temporary file first).
# Standard-error columns (*_se) are not drawn: they belong to their means.

data = ARG1
out = ARG2
term = ARG3
if (strlen(term) == 0) {
    ext = out[strlen(out)-2:]
    term = (ext eq "png") ? "pngcairo" : (ext eq "svg") ? "svg" : (ext eq "pdf") ? "pdfcairo" : ""
    if (strlen(term) == 0) { print "decay.gp: OUT must end in .png, .svg or .pdf"; exit status 1 }
}
if (term eq "pngcairo") { set terminal pngcairo size 960,600 noenhanced font ",11" }
if (term eq "svg")      { set terminal svg size 960,600 noenhanced dynamic font ",11" }
if (term eq "pdfcairo") { set terminal pdfcairo size 6.4in,4in noenhanced font ",10" }
set output out

# The header row (first line not starting with '#') names the columns;
# the metadata lines give d and the base for the title.
hdr = system(sprintf("awk '!/^#/ { print; exit }' '%s' | tr ',' ' '", data))
dim = system(sprintf("sed -n 's/^# dim=//p' '%s' | head -n 1", data))
rot = system(sprintf("sed -n 's/^# rot=//p' '%s' | head -n 1", data))
base = system(sprintf("sed -n 's/^# base=//p' '%s' | head -n 1", data))
grid = system(sprintf("sed -n 's/^# grid=//p' '%s' | head -n 1", data))
ncol = words(hdr)

set datafile separator comma
set datafile commentschars "#"
title = "RoPE long-term decay"
if (strlen(dim) > 0) { title = title . sprintf(", d = %s", dim) }
if (strlen(rot) > 0 && rot ne dim) { title = title . sprintf(" (%s rotated)", rot) }
if (strlen(base) > 0) { title = title . sprintf(", base = %s", base) }
set title title
set xlabel "relative distance r"
if (ncol == 2 && word(hdr, 2) eq "bound") {
    set ylabel "relative upper bound (RoFormer §3.4.3)"
} else {
    set ylabel "value (bound: RoFormer §3.4.3; similarity: sum cos(r theta_i))"
}
if (grid eq "log") { set logscale x }
set key top right
set grid
set autoscale xfix

cmd = ""
do for [i=2:ncol] {
    name = word(hdr, i)
    if (strstrt(name, "_se") == 0) {
        cmd = cmd . (strlen(cmd) > 0 ? ", " : "") . sprintf("'%s' using 1:%d with lines lw 1.5 title '%s'", data, i, name)
    }
}
if (strlen(cmd) == 0) { print "decay.gp: no data columns in ", data; exit status 1 }
eval("plot " . cmd)
unset output
