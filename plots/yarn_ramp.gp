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
W = 900
H = 560
FS = 10
load system(sprintf("dirname '%s'", ARG0)) . "/term.gp"

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
wrap_in = sprintf("YaRN's ramp: fraction of RoPE's frequency kept per pair (1 = extrapolated, 0 = interpolated); d = %s, base %s, L = %s, s = %s, beta_fast %s, beta_slow %s", meta("dim"), meta("base"), L, meta("factor"), meta("beta_fast"), meta("beta_slow"))
eval wrap
set title wrap_out
set xlabel "rotary pair i  (index)"
# (1 = extrapolated, 0 = interpolated: said by the title)
set ylabel "γ_i = (θ_i/θ_i(RoPE) − 1/s) / (1 − 1/s)  (no unit)"
# the table's pairs, rot/2 of them (it was 0..63 whatever the table held)
npair = int(real(meta("rot"))) / 2
set xrange [-0.5:npair - 0.5]
set yrange [-0.05:1.12]
set xtics 0, (npair >= 48 ? 4 : npair >= 16 ? 2 : 1), npair - 1
set ytics 0, 0.2, 1
set grid lt 1 lc rgb "#dddddd"  # "lc" alone draws no grid in gnuplot 5.4
set key below center Left reverse box font ",9" maxrows 3
set bmargin 7.5

set arrow 1 from first low, graph 0 to first low, graph 1 nohead dt 2 lw 1.3 lc rgb "#444444" back
set arrow 2 from first high, graph 0 to first high, graph 1 nohead dt 2 lw 1.3 lc rgb "#444444" back
set label 1 sprintf("i = %.2f: r = L/λ = β_fast = %s ", low, meta("beta_fast")) at first low, graph 0.40 right tc rgb "#333333"
set label 2 sprintf(" i = %.2f: r = β_slow = %s", high, meta("beta_slow")) at first high, graph 0.40 left tc rgb "#333333"
set label 3 "correction range" at first (low+high)/2, graph 0.03 center tc rgb "#333333"

plot data using 3:(form("code", "yes")) with linespoints lc rgb "#009E73" lw 2.2 pt 7 ps 0.6 \
       title sprintf("code ramp, range rounded to %s .. %s (hf --truncate yes; ggml, vllm)", rounded(1), rounded(2)), \
     data using 3:(form("code", "no")) with linespoints lc rgb "#0072B2" lw 1.6 dt 2 pt 6 ps 0.8 \
       title sprintf("code ramp, range %.2f .. %.2f unrounded (hf --truncate no)", low, high), \
     data using 3:(form("paper", "")) with linespoints lc rgb "#D55E00" lw 1.8 dt 1 pt 5 ps 0.5 \
       title "paper ramp, linear in r = L/λ (eq. 18-20)"
eval term_end
