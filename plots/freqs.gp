# freqs.gp: plot a `ropelab freqs` CSV against the pair index i.
# usage: gnuplot -c freqs.gp DATA.csv OUT.{png,svg,pdf} [TERMINAL]
# Top panel: theta_i in rad/token on the left axis (log); the same curve
# read as the wavelength 2 pi / theta_i in tokens on the right axis (its
# own axis, linked to the left one), points coloured by the method's band.
# The training length L (metadata train_len, `freqs --train-len L`) is a
# horizontal line at wavelength L: pairs above it turn less than once
# within L; with a factor s, s L too.  Pairs with theta = 0 (p-rope's
# unrotated ones) have no place on a log axis: they sit on the bottom edge.
# Bottom panel, when any ratio differs from 1: theta_i / theta_i(RoPE).

data = ARG1
out = ARG2
term = ARG3
ratio_differs = system(sprintf("awk -F, '!/^#/ && h { if ($4 != 1 && $4 != 0) n++ } !/^#/ { h = 1 } END { print n + 0 }' '%s'", data)) + 0
W = 1000
H = ratio_differs ? 860 : 620
load system(sprintf("dirname '%s'", ARG0)) . "/common.gp"

set datafile separator comma
set datafile commentschars "#"
set datafile columnheaders
L = meta("train_len")
s = meta("factor")
ctheta = col("theta")
cband = col("band")
cratio = col("ratio")
# range of the nonzero thetas, and the unrotated pairs
stats data using (column(ctheta) > 0 ? column(ctheta) : NaN) nooutput
tmin = STATS_min
tmax = STATS_max
npairs = int(system(sprintf("awk -F, '!/^#/ && h { n++ } !/^#/ { h = 1 } END { print n + 0 }' '%s'", data)))
zeros = system(sprintf("awk -F, '!/^#/ && h && $2 == 0 { z = z (z == \"\" ? \"\" : \" \") $1 } !/^#/ { h = 1 } END { print z }' '%s'", data))

t1 = sprintf("Frequency schedule per rotary pair, d = %s", meta("dim"))
if (meta("rot") ne meta("dim")) { t1 = t1 . sprintf(" (%s rotated)", meta("rot")) }
t1 = t1 . sprintf(", base = %s", meta("base"))
if (strlen(schedule_desc) > 0) { t1 = t1 . "\n" . schedule_desc }
ntl = 1 + (strlen(schedule_desc) > 0)

# the y range covers the thetas and the lines at 2 pi / L, 2 pi / (s L)
lo = tmin
if (strlen(L) > 0) { lo = (2*pi/real(L) < lo) ? 2*pi/real(L) : lo }
if (strlen(L) > 0 && strlen(s) > 0) { lo = (2*pi/(real(L)*real(s)) < lo) ? 2*pi/(real(L)*real(s)) : lo }
hi = (tmax > 2*pi/4) ? tmax : 2*pi/4

set grid lt 1 lc rgb "#dddddd"  # "lc" alone draws no grid in gnuplot 5.4
set xrange [-0.5:npairs-0.5]
set lmargin at screen 0.10
set rmargin at screen 0.86
top = 1.0 - (30.0 + 16.0 * ntl) / H
bot = 80.0 / H
set multiplot title t1 font ",11"
eval footer

set tmargin at screen top
set bmargin at screen ratio_differs ? bot + (top - bot) * 0.38 + 0.01 : bot
if (ratio_differs) { unset xlabel; set format x ((term eq "table") ? "%g" : "") } else { set xlabel "rotary pair i  (index)"; set format x "%g" }
# log10 on linear axes, so that the wavelength axis can be linked to
# the theta axis: log10(2 pi / theta) = log10(2 pi) - log10(theta)
set yrange [log10(lo / 2) : log10(hi * 2)]
set ytics () 
do for [k=floor(log10(lo / 2)):ceil(log10(hi * 2))] { set ytics add (sprintf("%g", 10.0**k) k) }
set ylabel "θ_i  (rad / token, log scale)"
set link y2 via log10(2*pi) - y inverse log10(2*pi) - y
set y2tics () 
do for [k=floor(log10(2*pi) - log10(hi * 2)):ceil(log10(2*pi) - log10(lo / 2))] { set y2tics add (sprintf("%g", 10.0**k) k) }
set y2label "wavelength 2π / θ_i  (tokens, log scale)"
ly(v) = log10(v)
set key at graph 0.98, graph 0.97 right top Left reverse box opaque font ",10" samplen 2
if (strlen(L) > 0) {
    set arrow 1 from graph 0, first ly(2*pi/real(L)) to graph 1, first ly(2*pi/real(L)) nohead dt 2 lw 1.4 lc rgb "#444444" front
    # the note on the side the curve leaves empty: below the line on the
    # left while the curve is above it there (it crosses the line past the
    # middle), else above it on the right; it overprinted the points
    # where the curve crossed under its end
    xc = real(system(sprintf("awk -F, -v v=%.17g -v c=%d -v n=%d '!/^#/ && h && $c + 0 > 0 && $c + 0 < v { print $1; f = 1; exit } !/^#/ { h = 1 } END { if (!f) print n }' '%s'", 2*pi/real(L), ctheta, npairs, data)))
    note = sprintf("training length L = %s tokens:\npairs below turn less than once within L", L)
    if (xc >= npairs / 2.0) {
        set label 1 note at graph 0.015, first ly(2*pi/real(L) / 1.6) left tc rgb "#333333" font ",10" front
    } else {
        set label 1 note at graph 0.985, first ly(2*pi/real(L) * 3.2) right tc rgb "#333333" font ",10" front
    }
    if (strlen(s) > 0) {
        set arrow 2 from graph 0, first ly(2*pi/(real(L)*real(s))) to graph 1, first ly(2*pi/(real(L)*real(s))) nohead dt 3 lw 1.4 lc rgb "#444444" front
        set label 2 sprintf("s L = %g tokens", real(L)*real(s)) at graph 0.015, first ly(2*pi/(real(L)*real(s)) / 1.45) left tc rgb "#333333" font ",10" front
    }
}
has_band(b) = int(system(sprintf("grep -c ',%s' '%s'", b, data))) > 0
array bands[3] = ["extrapolated", "between", "interpolated"]
array bcol[4] = ["#0072B2", "#E69F00", "#D55E00", "#888888"]
cmd = sprintf("data using 1:(column(%d) > 0 ? log10(column(%d)) : NaN) with lines lw 1.2 lc rgb '#999999' notitle", ctheta, ctheta)
# theta = 0 on a strip at the bottom edge, below the smallest theta
if (strlen(zeros) > 0) {
    cmd = cmd . sprintf(", data using 1:(column(%d) == 0 ? %g : NaN) with points pt 6 ps 0.8 lc rgb '#555555' title 'θ = 0: not rotated, wavelength ∞ (on the bottom edge)'", ctheta, log10(lo / 2) + 0.12)
}
if (cband > 0) {
    do for [b=1:3] {
        if (has_band(bands[b])) {
            cmd = cmd . sprintf(", data using 1:(strcol(%d) eq '%s' && column(%d) > 0 ? log10(column(%d)) : NaN) with points pt 7 ps 0.7 lc rgb '%s' title '%s'", \
                                cband, bands[b], ctheta, ctheta, bcol[b], bands[b])
        }
    }
} else {
    cmd = cmd . sprintf(", data using 1:(column(%d) > 0 ? log10(column(%d)) : NaN) with points pt 7 ps 0.7 lc rgb '%s' title 'θ_i'", ctheta, ctheta, bcol[1])
}
eval("plot " . cmd)

if (ratio_differs) {
    unset arrow
    unset label
    eval footer
    unset link y2
    set ytics autofreq
    set format y "%g"
    unset y2tics
    unset y2label
    unset key
    set tmargin at screen bot + (top - bot) * 0.38 - 0.01
    set bmargin at screen bot
    set xlabel "rotary pair i  (index)"
    set format x "%g"
    set logscale y 2
    set autoscale y
    set ylabel "θ_i / θ_i(RoPE), same d, rot, base  (no unit, log scale)"
    stats data using (column(cratio) > 0 ? column(cratio) : NaN) nooutput
    set yrange [STATS_min / 1.5 : (STATS_max > 1 ? STATS_max : 1) * 1.5]
    plot data using 1:(column(cratio) > 0 ? column(cratio) : NaN) with linespoints pt 7 ps 0.6 lw 1.4 lc rgb "#0072B2" notitle
}
unset multiplot
if (term eq "table") { unset table }
unset output
