# profile.gp: every scheme of a `ropelab profile` CSV against r.
# usage: gnuplot -c profile.gp DATA.csv OUT.{png,svg,pdf} [TERMINAL] [WHICH] [NORMALIZE]
# WHICH: "same" (identical content at both positions: <S>_same), "mean"
# (independent contents: <S>_mean with a +-2 <S>_se band) or "both"
# (default: two panels, same above mean).
# NORMALIZE: "none" (the logits as computed), "max" (each scheme divided
# by its largest |value| over the columns drawn, the divisor in the key),
# or "" (max for several schemes, none for one).
# Each scheme has its own colour whatever the order of the columns (a
# fixed palette: Okabe-Ito, then Tol's, then dashes; see common.gp).

data = ARG1
out = ARG2
term = ARG3
which = (strlen(ARG4) > 0) ? ARG4 : "both"
norm = ARG5
if (which ne "same" && which ne "mean" && which ne "both") { print "profile.gp: WHICH must be same, mean or both"; exit status 1 }
W = 1040
H = (which eq "both") ? 900 : 620
load system(sprintf("dirname '%s'", ARG0)) . "/common.gp"

set datafile separator comma
set datafile commentschars "#"
set datafile columnheaders

# the schemes, in column order: every NAME with a NAME_same column
schemes = ""
do for [i=2:ncol] {
    name = word(hdr, i)
    if (strlen(name) > 5 && name[strlen(name)-4:] eq "_same") { schemes = schemes . " " . name[1:strlen(name)-5] }
}
ns = words(schemes)
if (ns == 0) { print "profile.gp: no <scheme>_same columns in ", data; exit status 1 }
if (strlen(norm) == 0) { norm = (ns > 1) ? "max" : "none" }
if (norm ne "none" && norm ne "max") { print "profile.gp: NORMALIZE must be none or max"; exit status 1 }

# one colour (and dash) per scheme name, so a scheme looks the same in
# every figure
names = " rope alibi t5 deberta xl sinusoidal learned tupe rope2d nope integer binary "
array pal[12] = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#882255", "#000000", "#999933", "#332288", "#888888", "#56B4E9", "#44AA99"]
array dts[12] = [1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 4, 5]
sidx(n) = strstrt(names, " " . n . " ") == 0 ? 0 : words(names[1:strstrt(names, " " . n . " ")]) + 1
colour(n) = sidx(n) > 0 ? pal[sidx(n)] : "#777777"
dash(n) = sidx(n) > 0 ? dts[sidx(n)] : 3

# per-scheme divisors: the largest |value| over the drawn columns (the
# band's edges included), 1 without normalisation or for a zero curve
array div[ns]
do for [k=1:ns] {
    s = word(schemes, k)
    m = 0
    if (norm eq "max") {
        if (which ne "mean") {
            stats data using (column(col(s . "_same"))) nooutput
            m = (abs(STATS_min) > m) ? abs(STATS_min) : m
            m = (abs(STATS_max) > m) ? abs(STATS_max) : m
        }
        if (which ne "same") {
            stats data using (abs(column(col(s . "_mean"))) + 2 * column(col(s . "_se"))) nooutput
            m = (STATS_max > m) ? STATS_max : m
        }
    }
    div[k] = (m > 0) ? m : 1
}
keyname(k) = (norm eq "max" && div[k] != 1) ? sprintf("%s (÷ %.3g)", word(schemes, k), div[k]) : word(schemes, k)

sub = sprintf("d = %s, head %s of %s, projections %s, seed %s; query at %s, key at query - r; %s content samples", \
              meta("dim"), meta("head"), meta("heads"), meta("projections"), meta("seed"), meta("query_pos"), meta("samples"))
t1 = "Positional part of the logit (total - cc) against relative distance r\n" . sub
if (strlen(schedule_desc) > 0 && strstrt(schemes, "rope") > 0) { t1 = t1 . "\nrope, rope2d: " . schedule_desc }
if (norm eq "max") { t1 = t1 . "\neach scheme divided by its largest |value| over the curves drawn (the divisor is in the key)" }
ntl = 2 + (strlen(schedule_desc) > 0 && strstrt(schemes, "rope") > 0) + (norm eq "max")
normlab = (norm eq "max") ? " (÷ max |value|)" : ""

set grid lt 1 lc rgb "#dddddd"  # "lc" alone draws no grid in gnuplot 5.4
set autoscale xfix
set lmargin at screen 0.08
set rmargin at screen 0.76
set key at screen 0.775, graph 1.0 left top Left reverse font ",10" samplen 2.5 spacing 1.15
top = 1.0 - (30.0 + 16.0 * ntl) / H
bot = 80.0 / H
set multiplot title t1 font ",11"
eval footer
nox = (term eq "table") ? "%g" : ""

if (which ne "mean") {
    set tmargin at screen top
    set bmargin at screen (which eq "both") ? (top + bot) / 2 + 0.01 : bot
    if (which eq "both") { unset xlabel; set format x nox } else { set xlabel "relative distance r"; set format x "%g" }
    set ylabel "same content: mean" . normlab
    plot for [k=1:ns] data using 1:(column(col(word(schemes, k) . "_same")) / div[k]) with lines lw 1.8 \
         lc rgb colour(word(schemes, k)) dt dash(word(schemes, k)) title keyname(k)
}
if (which ne "same") {
    set tmargin at screen (which eq "both") ? (top + bot) / 2 - 0.01 : top
    set bmargin at screen bot
    set xlabel "relative distance r"
    set format x "%g"
    set ylabel "independent content: mean" . normlab
    if (which eq "both") {
        # the schemes are keyed above; here only what the band is
        plot for [k=1:ns] data using 1:((column(col(word(schemes, k) . "_mean")) - 2 * column(col(word(schemes, k) . "_se"))) / div[k]): \
                 ((column(col(word(schemes, k) . "_mean")) + 2 * column(col(word(schemes, k) . "_se"))) / div[k]) \
                 with filledcurves fs transparent solid 0.25 noborder lc rgb colour(word(schemes, k)) notitle, \
             for [k=1:ns] data using 1:(column(col(word(schemes, k) . "_mean")) / div[k]) with lines lw 1.4 \
                 lc rgb colour(word(schemes, k)) dt dash(word(schemes, k)) notitle, \
             NaN with filledcurves fs transparent solid 0.25 noborder lc rgb "#777777" title "band: mean ± 2 se", \
             NaN with lines lw 1.4 lc rgb "#777777" title "line: mean"
    } else {
        plot for [k=1:ns] data using 1:((column(col(word(schemes, k) . "_mean")) - 2 * column(col(word(schemes, k) . "_se"))) / div[k]): \
                 ((column(col(word(schemes, k) . "_mean")) + 2 * column(col(word(schemes, k) . "_se"))) / div[k]) \
                 with filledcurves fs transparent solid 0.25 noborder lc rgb colour(word(schemes, k)) notitle, \
             for [k=1:ns] data using 1:(column(col(word(schemes, k) . "_mean")) / div[k]) with lines lw 1.4 \
                 lc rgb colour(word(schemes, k)) dt dash(word(schemes, k)) title keyname(k), \
             NaN with filledcurves fs transparent solid 0.25 noborder lc rgb "#777777" title "band: mean ± 2 se"
    }
}
unset multiplot
if (term eq "table") { unset table }
unset output
