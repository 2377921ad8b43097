# decay.gp: plot a `ropelab decay` CSV against r, one panel per kind of
# quantity, so no axis mixes units:
#   - bound, similarity: RoFormer's relative upper bound and B_r (both
#     dimensionless sums of unit phasors);
#   - mc_self_mean (+-2 mc_self_se band) and its closed form
#     mc_self_expect: the logit q^T R_r q;
#   - mc_ind_mean (+-2 mc_ind_se band) and its expectation 0: the logit
#     q^T R_r k of independent q, k;
#   - abel_max: a ratio (<= 1), on its own small axis.
# Columns are picked by their exact names; any other column is drawn in
# the first panel under its own name.
# usage: gnuplot -c decay.gp DATA.csv OUT.{png,svg,pdf} [TERMINAL]
# The terminal follows OUT's extension unless given (ropelab passes it,
# because it draws into a temporary file first); "table" writes the
# plotted points as text (see common.gp).

data = ARG1
out = ARG2
term = ARG3
hdr0 = system(sprintf("awk '!/^#/ { print; exit }' '%s' | tr ',' ' '", data))
has(n) = strstrt(" " . hdr0 . " ", " " . n . " ") > 0
nox = (ARG3 eq "table") ? "%g" : ""  # the table needs its x values
known = " r n bound similarity mc_ind_mean mc_ind_se mc_self_mean mc_self_se mc_self_expect abel_max r_first r_last bound_min bound_max similarity_min similarity_max "
# decay --bins K --bin-stat range: each bin's smallest and largest value
# over every r in it, drawn as a box from r_first to r_last (so every
# extreme of an oscillating B_r shows, and its negative values)
ranged = has("r_first") && has("r_last")
nother = 0
do for [i=2:words(hdr0)] { if (strstrt(known, " " . word(hdr0, i) . " ") == 0) { nother = nother + 1 } }
pA = has("bound") || has("similarity") || has("bound_min") || has("similarity_min") || nother > 0
pB = has("mc_self_mean") || has("mc_self_expect")
pC = has("mc_ind_mean")
pD = has("abel_max")
# panel heights (relative): the ratio panel is a strip
wA = pA ? 1.0 : 0
wB = pB ? 1.0 : 0
wC = pC ? 0.75 : 0
wD = pD ? 0.55 : 0
wsum = wA + wB + wC + wD
if (wsum == 0) { print "decay.gp: no data columns in ", data; exit status 1 }
W = 1040
npanel = pA + pB + pC + pD
H = npanel == 1 ? 600 : int(190 + 300 * wsum)
load system(sprintf("dirname '%s'", ARG0)) . "/common.gp"

dim = meta("dim")
rot = meta("rot")
base = meta("base")
grid = meta("grid")
set datafile separator comma
set datafile commentschars "#"

# what the panels hold, named in the title: the bound is RoFormer's upper
# bound of the logit's relative size, not the logit itself
what = ""
if (has("bound")) { what = "relative upper bound of the logit" }
if (has("similarity") || has("similarity_min")) { what = what . (strlen(what) ? " and " : "") . "B_r" }
if (has("bound_min") && !has("bound")) { what = "relative upper bound of the logit" . (has("similarity_min") ? " and B_r" : "") }
if (pB || pC) { what = what . (strlen(what) ? " and " : "") . "Monte Carlo logits" }
t1 = "Long-term decay of RoPE" . (strlen(what) ? ": " . what : "")
if (strlen(dim) > 0) { t1 = t1 . sprintf(", d = %s", dim) }
if (strlen(rot) > 0 && rot ne dim) { t1 = t1 . sprintf(" (%s rotated)", rot) }
if (strlen(base) > 0) { t1 = t1 . sprintf(", base = %s", base) }
if (strlen(schedule_desc) > 0) { t1 = t1 . "\n" . schedule_desc }
if (pB || pC || pD) {
    t1 = t1 . sprintf("\nMonte Carlo: %s samples of q, k ~ N(0, sigma^2 I) per r, sigma = %s, seed %s (the same samples at every r)", meta("samples"), meta("sigma"), meta("seed"))
}

# vertical layout in screen coordinates: title on top, footer below
ntl = 1 + (strlen(schedule_desc) > 0) + (pB || pC || pD)
top = 1.0 - (28.0 + 16.0 * ntl) / H
bot = 78.0 / H
unit = (top - bot) / wsum
set lmargin at screen 0.09
if (npanel == 1) {
    set rmargin at screen 0.97
    set key inside right top Right noreverse box opaque font ",10" samplen 2.5 spacing 1.1
} else {
    set rmargin at screen 0.70
    set key at screen 0.715, graph 1.0 left top Left reverse font ",10" samplen 2.5 spacing 1.1
}
set grid lt 1 lc rgb "#dddddd"  # "lc" alone draws no grid in gnuplot 5.4
if (grid eq "log" || ranged) { set logscale x }
set autoscale xfix
# bins are drawn at their geometric centres: the axis still spans the
# range the command named, from the first bin's r_first to the last's
# r_last (it stopped at the last centre, short of the last tick)
if (ranged) {
    rr = system(sprintf("awk -F, 'NR > 1 && !/^#/ { if (lo == \"\") lo = $%d; hi = $%d } END { print lo, hi }' '%s'", col("r_first"), col("r_last"), data))
    set xrange [real(word(rr, 1)):real(word(rr, 2))]
}
set multiplot title t1 font ",11"
eval footer

# the panels top to bottom; only the lowest has x labels
y0 = top
last = pD ? 4 : pC ? 3 : pB ? 2 : 1
xlab = "relative distance r (tokens" . (grid eq "log" || ranged ? ", log scale)" : ")") . (ranged ? sprintf(", every integer r, %s bins per octave (band: a bin's smallest to largest value)", meta("bins")) : "")

blue = "#0072B2"
verm = "#D55E00"
green = "#009E73"
purple = "#CC79A7"

if (pA) {
    set tmargin at screen y0
    y0 = y0 - wA * unit
    set bmargin at screen y0 + (last == 1 ? 0 : 0.012)
    if (last == 1) { set xlabel xlab; set format x "%g" } else { unset xlabel; set format x nox }
    # n, the number of rotary pairs the bound averages over (RoFormer's d/2)
    npairs = sprintf("n = rot/2 = %d", int(real(rot)) / 2)
    yl = ((has("bound") && has("similarity")) ? "(1/n) Σ_j |S_j|, " . npairs . ", and B_r" : has("bound") ? "relative upper bound (1/n) Σ_j |S_j|,  " . npairs : has("similarity") ? "B_r = Σ_i cos(r θ_i)" : "value") . "  (no unit)"
    # (beside a panel among four, a smaller font keeps it on the page)
    set ylabel yl font (npanel > 2 ? ",9" : "")
    cmd = ""
    if (ranged && has("similarity_min")) {
        yl = (has("bound_min") ? "(1/n) Σ_j |S_j|  and  B_r = Σ_i cos(r θ_i),  " . npairs : "B_r = Σ_i cos(r θ_i)") . "  (no unit)"
        set ylabel yl font (npanel > 2 ? ",9" : "")
        # the first bin holding a negative B_r, marked with its r range
        neg = system(sprintf("awk -F, 'NR > 1 && !/^#/ && $%d < 0 { print $%d, $%d; exit }' '%s'", col("similarity_min"), col("r_first"), col("r_last"), data))
        if (strlen(neg) > 0) {
            nlo = real(word(neg, 1))
            nhi = real(word(neg, 2))
            set object 5 rect from first nlo, graph 0 to first nhi, graph 1 back fs solid 0.18 noborder fc rgb "#D55E00"
            set label 5 sprintf("first B_r < 0: r in %.0f..%.0f", nlo, nhi) at first nlo, graph 0.06 right offset -0.6, 0 font ",9" tc rgb verm front
        }
        set arrow 6 from graph 0, first 0 to graph 1, first 0 nohead dt 2 lw 1 lc rgb "#666666" back
        if (npanel == 1) { set key inside left top Left reverse box opaque font ",10" samplen 2.5 spacing 1.1 }
    }
    # the band between each bin's smallest and largest value, and both
    # envelopes as lines (a bin of one r is a point of the lines)
    if (ranged && has("bound_min")) { cmd = cmd . sprintf("data using (sqrt($%d*$%d)):%d:%d with filledcurves fs transparent solid 0.35 noborder lc rgb '%s' title 'bound (RoFormer §3.4.3): smallest to largest in each bin', data using (sqrt($%d*$%d)):%d with lines lw 1 lc rgb '%s' notitle, data using (sqrt($%d*$%d)):%d with lines lw 1 lc rgb '%s' notitle", col("r_first"), col("r_last"), col("bound_min"), col("bound_max"), blue, col("r_first"), col("r_last"), col("bound_min"), blue, col("r_first"), col("r_last"), col("bound_max"), blue) }
    if (ranged && has("similarity_min")) { cmd = cmd . (strlen(cmd) ? ", " : "") . sprintf("data using (sqrt($%d*$%d)):%d:%d with filledcurves fs transparent solid 0.35 noborder lc rgb '%s' title 'B_r (Men et al. 2024): smallest to largest in each bin', data using (sqrt($%d*$%d)):%d with lines lw 1 lc rgb '%s' notitle, data using (sqrt($%d*$%d)):%d with lines lw 1 lc rgb '%s' notitle", col("r_first"), col("r_last"), col("similarity_min"), col("similarity_max"), verm, col("r_first"), col("r_last"), col("similarity_min"), verm, col("r_first"), col("r_last"), col("similarity_max"), verm) }
    if (has("bound")) { cmd = cmd . sprintf("data using 1:%d with lines lw 1.6 lc rgb '%s' title 'bound (RoFormer §3.4.3)'", col("bound"), blue) }
    if (has("similarity")) { cmd = cmd . (strlen(cmd) ? ", " : "") . sprintf("data using 1:%d with lines lw 1.6 lc rgb '%s' title 'similarity B_r (Men et al. 2024)'", col("similarity"), verm) }
    do for [i=2:ncol] {
        if (strstrt(known, " " . word(hdr, i) . " ") == 0) {
            cmd = cmd . (strlen(cmd) ? ", " : "") . sprintf("data using 1:%d with lines lw 1.4 title '%s'", i, word(hdr, i))
        }
    }
    eval("plot " . cmd)
}
if (pB) {
    set tmargin at screen y0
    y0 = y0 - wB * unit
    set bmargin at screen y0 + (last == 2 ? 0 : 0.012)
    if (last == 2) { set xlabel xlab; set format x "%g" } else { unset xlabel; set format x nox }
    set ylabel "logit q^T R_r q, k = q  (no unit)"
    cmd = ""
    if (has("mc_self_mean") && has("mc_self_se")) {
        cmd = sprintf("data using 1:($%d-2*$%d):($%d+2*$%d) with filledcurves fs transparent solid 0.3 noborder lc rgb '%s' title 'mean ± 2 se', ", \
                      col("mc_self_mean"), col("mc_self_se"), col("mc_self_mean"), col("mc_self_se"), blue)
    }
    if (has("mc_self_mean")) { cmd = cmd . sprintf("data using 1:%d with lines lw 1.4 lc rgb '%s' title 'mc_self_mean', ", col("mc_self_mean"), blue) }
    if (has("mc_self_expect")) { cmd = cmd . sprintf("data using 1:%d with lines lw 1.4 dt 2 lc rgb '#000000' title 'mc_self_expect = 2σ²B_r + σ²(d - rot)', ", col("mc_self_expect")) }
    eval("plot " . cmd[1:strlen(cmd)-2])
}
if (pC) {
    set tmargin at screen y0
    y0 = y0 - wC * unit
    set bmargin at screen y0 + (last == 3 ? 0 : 0.012)
    if (last == 3) { set xlabel xlab; set format x "%g" } else { unset xlabel; set format x nox }
    set ylabel "logit q^T R_r k, independent  (no unit)"
    cmd = ""
    if (has("mc_ind_se")) {
        cmd = sprintf("data using 1:($%d-2*$%d):($%d+2*$%d) with filledcurves fs transparent solid 0.3 noborder lc rgb '%s' title 'mean ± 2 se', ", \
                      col("mc_ind_mean"), col("mc_ind_se"), col("mc_ind_mean"), col("mc_ind_se"), green)
    }
    cmd = cmd . sprintf("data using 1:%d with lines lw 1.4 lc rgb '%s' title 'mc_ind_mean', ", col("mc_ind_mean"), green)
    cmd = cmd . "data using 1:(0) with lines lw 1.2 dt 2 lc rgb '#000000' title 'expectation 0'"
    eval("plot " . cmd)
}
if (pD) {
    set tmargin at screen y0
    y0 = y0 - wD * unit
    set bmargin at screen y0
    set xlabel xlab
    set format x "%g"
    set ylabel "max |q^T R_r k| / Abel  (ratio)" font ",10"
    set yrange [0:*]
    plot data using 1:(column(col("abel_max"))) with lines lw 1.4 lc rgb purple title "abel_max (≤ 1)"
}
unset multiplot
if (term eq "table") { unset table }
unset output
