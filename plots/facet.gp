# facet.gp: a table drawn as seaborn's relplot draws a tidy frame, for
# `ropelab plot` and a sweep's --plot (src/cli/commands/cmd_plot.c).  The data are
# gnuplot blocks (index p * nh + h: panel p, colour h, each "x y" lines),
# preceded by the table's own metadata and '# facet_KEY=VALUE' lines:
#   np, nh           panels and colours
#   x, y, hue, log   axis labels (with units where the command states
#                    them), the key's title, log axes (x, y, x,y)
#   rows             a sweep's measures: a row of panels each (panel
#                    (R - 1) * np / rows + C), with ylabel_R, ymin_R,
#                    ymax_R: its label and the range of its values
#   title            the title, or "" for "Y against X"
#   points           "yes": few points a curve, drawn with marks
#   fixed            what every curve shares (a second title line)
#   panel_P, hue_H   each panel's and each colour's label
# Panels share one y range, so curves compare across them (a row of a
# measure shares its own).  Colours are
# Okabe and Ito's, then Tol's (see common.gp), and past 12 the dash
# pattern changes too, so no two curves look alike.
# usage: gnuplot -c facet.gp DATA OUT.{png,svg,pdf} [TERMINAL]

data = ARG1
out = ARG2
term = ARG3
fmeta(k) = system(sprintf("sed -n 's/^# facet_%s=//p' '%s' | head -n 1", k, data))
np = int(fmeta("np"))
nh = int(fmeta("nh"))
if (np < 1 || nh < 1) { print "facet.gp: no facet_np / facet_nh lines in ", data; exit status 1 }
nrows_s = fmeta("rows")
nrows = strlen(nrows_s) > 0 ? int(nrows_s) : 0
# a sweep's measures: a row each, the --col values across (the bound
# alone was drawn, and the B_r a sweep measured dropped)
if (nrows > 1) { cols = np / nrows; rows = nrows } else { cols = np < 3 ? np : 3; rows = int((np + cols - 1) / cols) }
W = cols == 1 ? 960 : 560 * cols
H = 140 + (nrows > 1 ? 330 : 400) * rows
# (the key's rows, past two, get their own room: 18 px each)
H = H + ((nh > 8) ? 18 * int((nh - 8 + 1) / 2) : 0)
load system(sprintf("dirname '%s'", ARG0)) . "/common.gp"

# each curve's colour (its --hue value) and line type (its --style value)
array colour[nh]
array dash[nh]
do for [h = 1:nh] {
    c = fmeta(sprintf("colour_%d", h)); colour[h] = strlen(c) > 0 ? int(c) : h
    c = fmeta(sprintf("dash_%d", h)); dash[h] = strlen(c) > 0 ? int(c) : 1
}
array pal[12] = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#882255", "#000000", "#999933", "#332288", "#888888", "#56B4E9", "#44AA99"]
xl = fmeta("x")
yl = fmeta("y")
huel = fmeta("hue")
logs = fmeta("log")
title = fmeta("title")
style = strlen(fmeta("points")) > 0 ? "linespoints pt 7 ps 0.8" : "lines"
if (strlen(title) == 0) { title = yl . " against " . xl . (strlen(huel) > 0 ? ", by " . huel : "") }
fixed = fmeta("fixed")  # what every curve shares, from the table's metadata
# the title in lines that fit the page (13 pt: about 9 px a character)
wrap_n = int(W / 9.5)
wrap_in = title
eval wrap
title = wrap_out
if (strlen(fixed) > 0) { wrap_in = fixed; eval wrap; title = title . "\n" . wrap_out }
ntl = nlines(title)

# one y range for every panel: gnuplot's autoscale of the whole data
set datafile separator whitespace
set datafile missing "NaN"
# "%g" on log axes: gnuplot's default pads every tick to the digits of
# the smallest (0.01000000 beside 1e-07), wider than the margin (not for
# the table terminal, whose numbers the format would round)
if (strstrt(logs, "x") > 0) { set logscale x; if (term ne "table") { set format x "%g" } }
if (strstrt(logs, "y") > 0) { set logscale y; if (term ne "table") { set format y "%g" } }
# (a log axis: the positive values; 0 would end the range at 0)
logy = strstrt(logs, "y") > 0
stats data using 1:((logy && $2 <= 0) ? NaN : $2) nooutput
ymin = STATS_min_y
ymax = STATS_max_y
if (ymin == ymax) { ymin = ymin - 0.5; ymax = ymax + 0.5 }
if (strstrt(logs, "y") == 0) { pad = 0.04 * (ymax - ymin); ymin = ymin - pad; ymax = ymax + pad }
set yrange [ymin:ymax]
set xrange [STATS_min_x:STATS_max_x]
# a row's own range: its measure's values, padded as above
array rlo[nrows > 1 ? nrows : 1]
array rhi[nrows > 1 ? nrows : 1]
do for [r = 1:nrows] {
    # (eval: gnuplot's real() of a string stops at an exponent)
    eval sprintf("rlo[r] = %s; rhi[r] = %s", fmeta(sprintf("ymin_%d", r)), fmeta(sprintf("ymax_%d", r)))
    if (rlo[r] == rhi[r]) { rlo[r] = (strstrt(logs, "y") > 0) ? rlo[r] / 2 : rlo[r] - 0.5; rhi[r] = (strstrt(logs, "y") > 0) ? rhi[r] * 2 : rhi[r] + 0.5 }
    if (strstrt(logs, "y") == 0) { pad = 0.04 * (rhi[r] - rlo[r]); rlo[r] = rlo[r] - pad; rhi[r] = rhi[r] + pad }
}

set grid lt 1 lc rgb "#dddddd"  # "lc" alone draws no grid in gnuplot 5.4
set xlabel xl
set ylabel yl
# the key once, in a band under the title, so every panel keeps the same
# width; the bottom band holds the footer (the command that made the data)
# (its rows: as many columns as the longest entry leaves room for, at
# gnuplot's 9 px a character of the PNG and the sample, at most 4)
hl = 1
do for [h = 1:nh] { l = strlen(fmeta(sprintf("hue_%d", h))); hl = (l > hl) ? l : hl }
kcols = int((W - 60) / (9.5 * hl + 80))
kcols = (kcols < 1) ? 1 : (kcols > 4) ? 4 : kcols
krows = int((nh + kcols - 1) / kcols) + (strlen(huel) > 0 ? 1 : 0)
ktop = 16.0 + 20.0 * ntl
top = 1 - (ktop + 18.0 * krows + 12 + (np > 1 ? 30 : 0)) / H
bot = 70.0 / H
set key at screen 0.5, screen 1 - ktop / H center top horizontal maxcols kcols Left reverse \
    samplen 3 noautotitle
if (strlen(huel) > 0) { set key title huel . ":" }
set multiplot layout rows, cols title title font ",13" \
    margins 90.0 / W, 1 - 25.0 / W, bot, top spacing 80.0 / W, 90.0 / H
eval footer
do for [p = 1:np] {
    pt = fmeta(sprintf("panel_%d", p))
    set title pt
    # the y label on the first column only: between panels it overprints ticks
    if (nrows > 1) {
        r = int((p - 1) / cols) + 1
        set yrange [rlo[r]:rhi[r]]
        if ((p - 1) % cols == 0) { set ylabel fmeta(sprintf("ylabel_%d", r)) } else { unset ylabel }
        # the x label under the last row only
        if (r == nrows) { set xlabel xl } else { unset xlabel }
    } else {
    if ((p - 1) % cols == 0) { set ylabel yl } else { unset ylabel }
    }
    if (p < np) { unset key } else { set key }
    plot for [h = 1:nh] data index ((p - 1) * nh + h - 1) using 1:2 with @style lw 2 \
        lc rgb pal[(colour[h] - 1) % 12 + 1] dashtype dash[h] + (colour[h] - 1) / 12 \
        title fmeta(sprintf("hue_%d", h))
}
unset multiplot
