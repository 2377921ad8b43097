# pi_fig5.gp: B(s)/d of Chen et al. 2023 (Figure 5) from `ropelab bound pi`.
# usage: gnuplot -c pi_fig5.gp PI.csv OUT.png
data = ARG1
set terminal pngcairo size 960,600 noenhanced font ",11"
set output ARG2
den = system(sprintf("sed -n 's/^# interp_denominator_32_ln_base=//p' '%s'", data))
set datafile separator comma
set datafile commentschars "#"
set xlabel "positional difference s"
set ylabel "B(s)/d"
set title sprintf("Chen et al. 2023 Fig. 5: B(s)/d, d = 128, base 10000 (interpolation bound: d max|h| / %.2f)", den + 0)
set key top right
set grid
set yrange [0:*]
set xrange [0:4095]
plot data using 5:6 skip 1 with lines lw 1.5 title "B(s)/d (extrapolation bound / (2 d max|h|))", \
     1 with lines dt 2 lw 2 title "B(s) = d"
