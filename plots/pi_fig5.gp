# pi_fig5.gp: B(s)/d of Chen et al. 2023 (Figure 5) from `ropelab bound pi`.
# usage: gnuplot -c pi_fig5.gp PI.csv OUT.{png,svg,pdf} [TERMINAL]
data = ARG1
out = ARG2
term = ARG3
W = 960
H = 600
load system(sprintf("dirname '%s'", ARG0)) . "/term.gp"
den = system(sprintf("sed -n 's/^# interp_denominator_32_ln_base=//p' '%s'", data))
set datafile separator comma
set datafile commentschars "#"
set xlabel "positional difference s  (tokens)"
set ylabel "B(s)/d  (no unit)"
meta(k) = system(sprintf("sed -n 's/^# %s=//p' '%s' | head -n 1", k, data))
set title sprintf("Chen et al. 2023 Fig. 5: B(s)/d, d = %s, base %s (interpolation bound: d max|h| / %.2f)", meta("dim"), meta("base"), den + 0)
set key top right
set grid
set yrange [0:*]
# the table's s range (it was 0..4095 whatever the table held)
set autoscale xfix
plot data using 5:6 skip 1 with lines lw 1.5 title "B(s)/d (extrapolation bound / (2 d max|h|))", \
     1 with lines dt 2 lw 2 title "B(s) = d"
eval term_end
