# yarn_ramp.gp: plot experiments/yarn_ramp.sh's gamma.csv: the fraction of
# the plain frequency each pair keeps under YaRN's code and paper ramps,
# with the correction range (metadata correction_low/high) as dashed lines.
# usage: gnuplot -c yarn_ramp.gp DATA.csv OUT.{png,svg,pdf} [TERMINAL]

data = ARG1
out = ARG2
term = ARG3
if (strlen(term) == 0) {
    ext = out[strlen(out)-2:]
    term = (ext eq "png") ? "pngcairo" : (ext eq "svg") ? "svg" : (ext eq "pdf") ? "pdfcairo" : ""
    if (strlen(term) == 0) { print "yarn_ramp.gp: OUT must end in .png, .svg or .pdf"; exit status 1 }
}
if (term eq "pngcairo") { set terminal pngcairo size 900,560 noenhanced font ",10" }
if (term eq "svg")      { set terminal svg size 900,560 noenhanced dynamic font ",10" }
if (term eq "pdfcairo") { set terminal pdfcairo size 6.4in,4in noenhanced font ",9" }
set output out

meta(k) = system(sprintf("sed -n 's/^# %s=//p' '%s' | head -n 1", k, data))
low = real(meta("correction_low"))
high = real(meta("correction_high"))

set datafile separator comma
set datafile commentschars "#"
set title "YaRN's ramp: fraction of RoPE's frequency kept per pair, d = 128, base 10000, L = 4096, s = 8 (beta_fast 32, beta_slow 1)"
set xlabel "rotary pair i"
set ylabel "γ_i = (θ_i/θ_i(RoPE) − 1/s) / (1 − 1/s)   (1 = extrapolated, 0 = interpolated)"
set xrange [-0.5:63.5]
set yrange [-0.05:1.12]
set xtics 0, 4, 63
set ytics 0, 0.2, 1
set grid lt 1 lc rgb "#dddddd"  # "lc" alone draws no grid in gnuplot 5.4
set key below center Left reverse box font ",9" maxrows 3
set bmargin 7.5

set arrow 1 from first low, graph 0 to first low, graph 1 nohead dt 2 lw 1.3 lc rgb "#444444" back
set arrow 2 from first high, graph 0 to first high, graph 1 nohead dt 2 lw 1.3 lc rgb "#444444" back
set label 1 sprintf("i = %.2f: r = L/λ = β_fast = 32 ", low) at first low, graph 0.40 right tc rgb "#333333"
set label 2 sprintf(" i = %.2f: r = β_slow = 1", high) at first high, graph 0.40 left tc rgb "#333333"
set label 3 "correction range" at first (low+high)/2, graph 0.03 center tc rgb "#333333"

plot data using 1:3 with linespoints lc rgb "#009E73" lw 2.2 pt 7 ps 0.6 title meta("series.code_truncate"), \
     data using 1:4 with linespoints lc rgb "#0072B2" lw 1.6 dt 2 pt 6 ps 0.8 title meta("series.code_exact"), \
     data using 1:5 with linespoints lc rgb "#D55E00" lw 1.8 dt 1 pt 5 ps 0.5 title meta("series.paper")
unset output
