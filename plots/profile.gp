# profile.gp: every scheme of a `ropelab profile` CSV on one axis.
# usage: gnuplot -c profile.gp DATA.csv OUT.{png,svg,pdf} [TERMINAL] [WHICH]
# WHICH is "same" (default: identical content at both positions) or
# "mean" (independent content, drawn with a +-2 standard error band).

data = ARG1
out = ARG2
term = ARG3
which = (strlen(ARG4) > 0) ? ARG4 : "same"
if (strlen(term) == 0) {
    ext = out[strlen(out)-2:]
    term = (ext eq "png") ? "pngcairo" : (ext eq "svg") ? "svg" : (ext eq "pdf") ? "pdfcairo" : ""
    if (strlen(term) == 0) { print "profile.gp: OUT must end in .png, .svg or .pdf"; exit status 1 }
}
if (term eq "pngcairo") { set terminal pngcairo size 960,600 noenhanced font ",11" }
if (term eq "svg")      { set terminal svg size 960,600 noenhanced dynamic font ",11" }
if (term eq "pdfcairo") { set terminal pdfcairo size 6.4in,4in noenhanced font ",10" }
set output out

hdr = system(sprintf("awk '!/^#/ { print; exit }' '%s' | tr ',' ' '", data))
meta(k) = system(sprintf("sed -n 's/^# %s=//p' '%s' | head -n 1", k, data))
ncol = words(hdr)

set datafile separator comma
set datafile commentschars "#"
set title sprintf("positional part of the logit (total - cc), d = %s, query at %s, key at query - r, %s samples", meta("dim"), meta("query_pos"), meta("samples"))
set xlabel "relative distance r"
set ylabel (which eq "mean") ? "mean over independent content (band: +-2 se)" : "mean over identical content at both positions"
set key outside right
set grid
set autoscale xfix

cmd = ""
do for [i=2:ncol] {
    name = word(hdr, i)
    suffix = "_" . which
    if (strlen(name) > strlen(suffix) && name[strlen(name)-strlen(suffix)+1:] eq suffix) {
        label = name[1:strlen(name)-strlen(suffix)]
        if (which eq "mean") {
            cmd = cmd . (strlen(cmd) > 0 ? ", " : "") . sprintf("'%s' using 1:($%d-2*$%d):($%d+2*$%d) with filledcurves fs transparent solid 0.2 noborder notitle", data, i, i+1, i, i+1)
        }
        cmd = cmd . (strlen(cmd) > 0 ? ", " : "") . sprintf("'%s' using 1:%d with lines lw 1.5 title '%s'", data, i, label)
    }
}
if (strlen(cmd) == 0) { print "profile.gp: no ", which, " columns in ", data; exit status 1 }
eval("plot " . cmd)
unset output
