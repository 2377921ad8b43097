# freqs.gp: plot a `ropelab freqs` CSV: theta and wavelength of each pair
# on a log scale (and rotations within the training length, if present).
# usage: gnuplot -c freqs.gp DATA.csv OUT.{png,svg,pdf} [TERMINAL]

data = ARG1
out = ARG2
term = ARG3
if (strlen(term) == 0) {
    ext = out[strlen(out)-2:]
    term = (ext eq "png") ? "pngcairo" : (ext eq "svg") ? "svg" : (ext eq "pdf") ? "pdfcairo" : ""
    if (strlen(term) == 0) { print "freqs.gp: OUT must end in .png, .svg or .pdf"; exit status 1 }
}
if (term eq "pngcairo") { set terminal pngcairo size 960,600 noenhanced font ",11" }
if (term eq "svg")      { set terminal svg size 960,600 noenhanced dynamic font ",11" }
if (term eq "pdfcairo") { set terminal pdfcairo size 6.4in,4in noenhanced font ",10" }
set output out

hdr = system(sprintf("awk '!/^#/ { print; exit }' '%s' | tr ',' ' '", data))
dim = system(sprintf("sed -n 's/^# dim=//p' '%s' | head -n 1", data))
base = system(sprintf("sed -n 's/^# base=//p' '%s' | head -n 1", data))
ncol = words(hdr)

set datafile separator comma
set datafile commentschars "#"
set title sprintf("RoPE frequency schedule, d = %s, base = %s", dim, base)
set xlabel "pair i"
set ylabel "theta_i (radians per position), wavelength 2 pi / theta_i, rotations"
set logscale y
set format y "%g"
set key top left
set grid
plot for [i=2:(ncol >= 4 ? 4 : ncol)] data using 1:i with linespoints pt 7 ps 0.5 title word(hdr, i)
unset output
