# yarn_ramp.gp: plot experiments/yarn_ramp.sh's ramp.csv (a `freqs
# --method yarn --ramp code,paper --truncate yes,no` sweep: columns ramp,
# truncate, pair, theta, wavelength, ratio, ...): the fraction of the plain
# frequency each pair keeps, gamma_i = (ratio_i - 1/s) / (1 - 1/s), under
# YaRN's code and paper ramps, with the correction range (read from the
# schedule metadata of the unrounded code point) as dashed lines.
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
s = real(meta("factor"))
L = meta("train_len")
# "... correction range 20.944481620636054 .. 45.026881273754547 before rounding, 20 .. 46 used"
range(w) = system(sprintf("sed -n 's/^# schedule\\[ramp:code,truncate:no\\]=.*correction range \\([0-9.]*\\) \\.\\. \\([0-9.]*\\) before.*/\\%d/p' '%s'", w, data))
rounded(w) = system(sprintf("sed -n 's/^# schedule\\[ramp:code,truncate:yes\\]=.*, \\([0-9]*\\) \\.\\. \\([0-9]*\\) used.*/\\%d/p' '%s'", w, data))
low = real(range(1))
high = real(range(2))
kept(ratio) = (ratio - 1/s) / (1 - 1/s)
# the rows of one form: gamma where columns 1 and 2 are ramp and truncate
form(r, t) = (strcol(1) eq r && strcol(2) eq t) ? kept($6) : NaN

set datafile separator comma
set datafile commentschars "#"
set title sprintf("YaRN's ramp: fraction of RoPE's frequency kept per pair, d = %s, base %s, L = %s, s = %s (beta_fast %s, beta_slow %s)", meta("dim"), meta("base"), L, meta("factor"), meta("beta_fast"), meta("beta_slow"))
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

plot data using 3:(form("code", "yes")) with linespoints lc rgb "#009E73" lw 2.2 pt 7 ps 0.6 \
       title sprintf("code ramp, range rounded to %s .. %s (hf --truncate yes; ggml, vllm)", rounded(1), rounded(2)), \
     data using 3:(form("code", "no")) with linespoints lc rgb "#0072B2" lw 1.6 dt 2 pt 6 ps 0.8 \
       title sprintf("code ramp, range %.2f .. %.2f unrounded (hf --truncate no)", low, high), \
     data using 3:(form("paper", "")) with linespoints lc rgb "#D55E00" lw 1.8 dt 1 pt 5 ps 0.5 \
       title "paper ramp, linear in r = L/λ (eq. 18-20)"
unset output
