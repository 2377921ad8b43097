# bound_pi.gp: `ropelab bound pi --plot`: Chen et al. 2023's B(s)/d
# against s (their Appendix B, Figure 5; experiments/pi_fig5.sh draws the
# same for d = 128, base 10000).  B(s) = sum_k |sum_{j<k} e^{i s theta_j}|
# is the extrapolation bound's sum (their eq. 8); the line B(s)/d = 1 is
# where their "~600x" argument sits.  The right axis reads the same curve
# as the ratio column, extrapolation bound / interpolation bound
# = 2 (B(s)/d) 32 ln base (Theorem 2.1): an axis linked to the left one.
# That constant is plain RoPE's: for other methods the ratio divides by
# the schedule's own sum of theta^2 (metadata ratio_per_b_over_d,
# src/core/bounds/pi.c), and the title and key say so.
# usage: gnuplot -c bound_pi.gp DATA.csv OUT.{png,svg,pdf} [TERMINAL]

data = ARG1
out = ARG2
term = ARG3
W = 1000
H = 620
load system(sprintf("dirname '%s'", ARG0)) . "/common.gp"

set datafile separator comma
set datafile commentschars "#"
set datafile columnheaders
paper = meta("interp_denominator_32_ln_base") ne ""
den = paper ? real(meta("interp_denominator_32_ln_base")) : real(meta("ratio_per_b_over_d")) / 2
cs = col("s")
cb = col("b_over_d")

# with partial rotation B(s) runs over the rotated pairs and d is --rot
# (src/core/bounds/pi.c: b_over_d(0) = (rot/2 + 1)/2), not the dim column
t1 = sprintf("Chen et al. 2023 (position interpolation), Fig. 5: B(s)/d, d = %s", meta("rot"))
if (meta("rot") ne meta("dim")) { t1 = t1 . sprintf(" rotated dims of %s (pass-through pairs left out)", meta("dim")) }
t1 = t1 . sprintf(", base = %s", meta("base"))
if (strlen(schedule_desc) > 0) { t1 = t1 . "\n" . schedule_desc }
if (paper) {
  t1 = t1 . sprintf("\nextrapolation bound / interpolation bound = 2 (B(s)/d) 32 ln base = %.5g B(s)/d (right axis)", 2 * den)
} else {
  t1 = t1 . sprintf("\nextrapolation / interpolation bound = 16 B(s) / Σ_j θ_j^2 = %.5g B(s)/d (right axis; Σ θ^2 = %.5g)", 2 * den, real(meta("interp_sum_theta_sq")))
}
ntl = 2 + (strlen(schedule_desc) > 0)

stats data using cs nooutput
smin = STATS_min
smax = STATS_max
stats data using cb nooutput
ymax = STATS_max > 1 ? STATS_max : 1

set lmargin at screen 0.09
set rmargin at screen 0.88
set tmargin at screen 1.0 - (30.0 + 16.0 * ntl) / H
set bmargin at screen 80.0 / H
set title t1 font ",11"
eval footer
set grid lt 1 lc rgb "#dddddd"  # "lc" alone draws no grid in gnuplot 5.4
set xlabel "relative position s (tokens)"
set ylabel "B(s)/d, B(s) = Σ_k |Σ_{j<k} e^{i s θ_j}|  (no unit)"
set xrange [smin:smax]
set yrange [0:ymax * 1.05]
set link y2 via 2 * den * y inverse y / (2 * den)
# the right axis's own round tics (a linked axis would copy the left's)
y2top = ymax * 1.05 * 2 * den
e10 = 10.0 ** floor(log10(y2top / 5))
m = y2top / 5 / e10
set y2tics 0, e10 * (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10)
set y2label "extrapolation bound / interpolation bound  (ratio)"
set ytics nomirror
set key top right box opaque font ",10" samplen 2.5
plot data using cs:cb with lines lw 1.5 lc rgb "#0072B2" title "B(s)/d", \
     1 with lines dt 2 lw 2 lc rgb "#D55E00" title (paper ? sprintf("B(s) = d: ratio 2 · 32 ln base = %.4g", 2 * den) : sprintf("B(s) = d: ratio 16 rot / Σ θ^2 = %.4g", 2 * den))
if (term eq "table") { unset table }
unset output
