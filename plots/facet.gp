# facet.gp: a table drawn as seaborn's relplot draws a tidy frame, for
# `ropelab plot` and a sweep's --plot (src/cli/commands/cmd_plot.c).  The data are
# gnuplot blocks (index p * nh + h: panel p, colour h, each "x y" lines),
# preceded by the table's own metadata and '# facet_KEY=VALUE' lines:
#   np, nh           panels and colours
#   x, y, hue, log   axis labels, the key's title, log axes (x, y, x,y)
#   title            the title, or "" for "Y against X"
#   points           "yes": few points a curve, drawn with marks
#   fixed            what every curve shares (a second title line)
#   panel_P, hue_H   each panel's and each colour's label
# Panels share one y range, so curves compare across them.  Colours are
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
cols = np < 3 ? np : 3
rows = int((np + cols - 1) / cols)
W = cols == 1 ? 960 : 560 * cols
H = 140 + 400 * rows
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
if (strlen(fixed) > 0) { title = title . "\n" . fixed }

# one y range for every panel: gnuplot's autoscale of the whole data
set datafile separator whitespace
set datafile missing "NaN"
# "%g" on log axes: gnuplot's default pads every tick to the digits of
# the smallest (0.01000000 beside 1e-07), wider than the margin (not for
# the table terminal, whose numbers the format would round)
if (strstrt(logs, "x") > 0) { set logscale x; if (term ne "table") { set format x "%g" } }
if (strstrt(logs, "y") > 0) { set logscale y; if (term ne "table") { set format y "%g" } }
stats data using 1:2 nooutput
ymin = STATS_min_y
ymax = STATS_max_y
if (ymin == ymax) { ymin = ymin - 0.5; ymax = ymax + 0.5 }
if (strstrt(logs, "y") == 0) { pad = 0.04 * (ymax - ymin); ymin = ymin - pad; ymax = ymax + pad }
set yrange [ymin:ymax]
set xrange [STATS_min_x:STATS_max_x]

set grid lt 1 lc rgb "#dddddd"  # "lc" alone draws no grid in gnuplot 5.4
set xlabel xl
set ylabel yl
# the key once, in a band under the title, so every panel keeps the same
# width; the bottom band holds the footer (the command that made the data)
keyh = 40.0 * (1 + int((nh - 1) / 4)) + (strlen(fixed) > 0 ? 20 : 0)
top = 1 - (60.0 + keyh + (np > 1 ? 28 : 0)) / H
bot = 70.0 / H
set key at screen 0.5, screen 1 - (strlen(fixed) > 0 ? 68.0 : 48.0) / H center top horizontal maxcols 4 Left reverse \
    samplen 3 noautotitle
if (strlen(huel) > 0) { set key title huel . ":" }
set multiplot layout rows, cols title title font ",13" \
    margins 90.0 / W, 1 - 25.0 / W, bot, top spacing 80.0 / W, 90.0 / H
eval footer
do for [p = 1:np] {
    pt = fmeta(sprintf("panel_%d", p))
    set title pt
    # the y label on the first column only: between panels it overprints ticks
    if ((p - 1) % cols == 0) { set ylabel yl } else { unset ylabel }
    if (p < np) { unset key } else { set key }
    plot for [h = 1:nh] data index ((p - 1) * nh + h - 1) using 1:2 with @style lw 2 \
        lc rgb pal[(colour[h] - 1) % 12 + 1] dashtype dash[h] + (colour[h] - 1) / 12 \
        title fmeta(sprintf("hue_%d", h))
}
unset multiplot
