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
# more than 4 schemes: one panel per scheme (facets), each on its own y
# axis, both measures in it; twelve curves and bands on two shared axes
# could not be read (issue 15).  Counted before common.gp sizes the page.
ns0 = int(system(sprintf("awk -F, '!/^#/ { for (i = 1; i <= NF; i++) n += ($i ~ /_same$/); print n + 0; exit }' '%s'", data)))
facet = (ns0 > 4)
fcols = (ns0 > 9) ? 4 : 3
frows = facet ? int((ns0 + fcols - 1) / fcols) : 1
W = facet ? 330 * fcols + 60 : 1040
# facets: 250 px a row of panels and 100 px between rows (tick labels,
# the x label and the next panel's key; 0.09 of a two-row page, 58 px,
# put the key over the x label above it), the title above
H = facet ? 350 * frows + 110 : (which eq "both") ? 900 : 620
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
if (strlen(norm) == 0) { norm = (ns > 1 && !facet) ? "max" : "none" }
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
# the parameters a paper trains (t5's biases, xl's W_r, u, v, ...) are
# random draws here: the metadata's trained_params says which (issue 36)
drawn = system(sprintf("sed -n 's/^# trained_params=random draws from seed [0-9]*, not trained: //p' '%s' | head -n 1 | " . \
               "awk -F'; ' '{ for (i = 1; i <= NF; i++) { n = $i; sub(/:.*/, \"\", n); printf \"%%s%%s\", (i > 1 ? \", \" : \"\"), n } }'", data))
lines = sub
if (strlen(drawn) > 0) { lines = lines . sprintf("; %s: positional parameters are random draws (seed %s), not trained", drawn, meta("seed")) }
if (strlen(schedule_desc) > 0 && strstrt(schemes, "rope") > 0) { lines = lines . "; rope, rope2d: " . schedule_desc }
if (norm eq "max") { lines = lines . "; each scheme divided by its largest |value| over the curves drawn (the divisor is in the key)" }
if (facet) { lines = lines . (which eq "same" ? "" : "; independent content: thin dark line (mean) and band (± 2 se)") . (which eq "mean" ? "" : "; same content: thick line in the scheme's colour") }
wrap_in = lines
eval wrap
t1 = "Positional part of the logit (total - cc) against relative distance r\n" . wrap_out
ntl = nlines(t1)
# the logit is q.k/sqrt(d) (tupe: /sqrt(2d), deberta: /sqrt(3d), as their
# papers scale it); divided by its maximum it has no unit
ylab = (norm eq "max") ? "÷ max |value| (no unit)" : "total - cc (logit, q·k/√d)"
xunit = "relative distance r (tokens)"

set grid lt 1 lc rgb "#dddddd"  # "lc" alone draws no grid in gnuplot 5.4
set autoscale xfix

if (facet) {
    # room under the title for the first panel's three key rows
    # 18 px a title line (pngcairo: 17), then the first panel's two key rows
    top = 1.0 - (20.0 + 18.0 * ntl + 40.0) / H
    set multiplot layout frows, fcols title t1 font ",11" margins 90.0 / W, 1 - 20.0 / W, 70.0 / H, top spacing 70.0 / W, 100.0 / H
    eval footer
    set xlabel xunit font ",9"
    set tics font ",8"
    # each panel names its scheme in a key above it (no curve under it);
    # the first also says what the grey line and band are
    set key at graph 0.5, graph 1.02 center bottom horizontal Left reverse font ",9" samplen 2 width -1 maxrows 2
    do for [k=1:ns] {
        s = word(schemes, k)
        # a flat curve (nope: 0 everywhere) gets a range around its value
        # instead of gnuplot's "empty y range" warning
        stats data using (column(col(s . "_same"))) nooutput
        if (STATS_max == STATS_min) { set yrange [STATS_min - 1:STATS_max + 1] } else { set yrange [*:*] }
        # the y label on the first column only (beside every panel it ran
        # into the tick labels of the panel on its left)
        if ((k - 1) % fcols == 0) { set ylabel ylab font ",9" } else { unset ylabel }
        cmd = ""
        if (which ne "same") {
            cmd = cmd . sprintf("data using 1:((column(col('%s_mean')) - 2 * column(col('%s_se'))) / div[%d]):((column(col('%s_mean')) + 2 * column(col('%s_se'))) / div[%d]) with filledcurves fs transparent solid 0.3 noborder lc rgb '%s' %s, ", s, s, k, s, s, k, colour(s), (k == 1) ? "title 'band: mean ± 2 se'" : "notitle")
            cmd = cmd . sprintf("data using 1:(column(col('%s_mean')) / div[%d]) with lines lw 1 lc rgb '#333333' %s, ", s, k, (k == 1) ? "title 'line: mean (independent)'" : "notitle")
        }
        if (which ne "mean") {
            cmd = cmd . sprintf("data using 1:(column(col('%s_same')) / div[%d]) with lines lw 2 lc rgb '%s' dt %d title '%s'", s, k, colour(s), dash(s), keyname(k))
        } else {
            cmd = cmd . sprintf("NaN with lines lw 2 lc rgb '%s' dt %d title '%s'", colour(s), dash(s), keyname(k))
        }
        eval("plot " . cmd)
    }
    unset multiplot
    if (term eq "table") { unset table }
    unset output
    exit
}
set lmargin at screen 0.08
set rmargin at screen 0.76
set key at screen 0.775, graph 1.0 left top Left reverse font ",10" samplen 2.5 spacing 1.15
top = 1.0 - (20.0 + 18.0 * ntl) / H
bot = 80.0 / H
set multiplot title t1 font ",11"
eval footer
nox = (term eq "table") ? "%g" : ""

if (which ne "mean") {
    set tmargin at screen top
    set bmargin at screen (which eq "both") ? (top + bot) / 2 + 0.01 : bot
    if (which eq "both") { unset xlabel; set format x nox } else { set xlabel xunit; set format x "%g" }
    set ylabel "same content: " . ylab
    plot for [k=1:ns] data using 1:(column(col(word(schemes, k) . "_same")) / div[k]) with lines lw 1.8 \
         lc rgb colour(word(schemes, k)) dt dash(word(schemes, k)) title keyname(k)
}
if (which ne "same") {
    set tmargin at screen (which eq "both") ? (top + bot) / 2 - 0.01 : top
    set bmargin at screen bot
    set xlabel xunit
    set format x "%g"
    set ylabel "independent content: mean " . ylab
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
