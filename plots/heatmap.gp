# heatmap.gp: draw a `ropelab matrix` CSV as a heatmap.
# usage: gnuplot -c heatmap.gp DATA.csv OUT.{png,svg,pdf} [TERMINAL]
# DATA is --format grid (n rows of n values: row = query position i,
# column = key position j) or --format long (i,j,<terms>; the first term
# column is drawn).  Both draw the same picture: key j across, query i
# down (row 0 at the top, as the matrix is written).
# Colours: data of both signs get a diverging palette (blue < 0 < red,
# ColorBrewer RdBu with white, #ffffff, for its light-grey middle #f7f7f7)
# on a range symmetric about 0, so white is exactly 0;
# data of one sign get a sequential one (viridis) over their range, with
# no white to be read as zero.  The colour box says which.

data = ARG1
out = ARG2
term = ARG3
W = 760
H = 680
load system(sprintf("dirname '%s'", ARG0)) . "/common.gp"

scheme = meta("scheme")
format = meta("format")
offset = meta("offset")
off = strlen(offset) > 0 ? real(offset) : 0
# the drawn term: --term's column, or the first term column of long
what = (format eq "long") ? word(hdr, 3) : meta("term")

set datafile separator comma
set datafile commentschars "#"
if (format eq "long") {
    stats data every ::1 using 3 nooutput
} else {
    stats data matrix using 3 nooutput
}
lo = STATS_min
hi = STATS_max
big = (abs(lo) > abs(hi)) ? abs(lo) : abs(hi)
# values within 1e-12 of the largest magnitude count as zero (rounding)
tiny = 1e-12 * big
if (big == 0) {
    set palette defined (0 "#2166ac", 1 "#67a9cf", 2 "#d1e5f0", 3 "#ffffff", 4 "#fddbc7", 5 "#ef8a62", 6 "#b2182b")
    set cbrange [-1:1]
    cblab = sprintf("%s logit (all 0; diverging, white = 0)", what)
} else {
    if (lo < -tiny && hi > tiny) {
        set palette defined (0 "#2166ac", 1 "#67a9cf", 2 "#d1e5f0", 3 "#ffffff", 4 "#fddbc7", 5 "#ef8a62", 6 "#b2182b")
        set cbrange [-big:big]
        cblab = sprintf("%s logit (diverging: white = 0, range +-%.3g)", what, big)
    } else {
        set palette defined (0 "#440154", 1 "#3b528b", 2 "#21918c", 3 "#5ec962", 4 "#fde725")
        set cbrange [lo:hi]
        cblab = sprintf("%s logit (sequential: all %s 0, %.3g .. %.3g)", what, (hi <= tiny ? "<=" : ">="), lo, hi)
    }
}
set cblabel cblab

title = sprintf("%s: %s logit, query i (rows) x key j (columns)", scheme, what)
sub = sprintf("d = %s, head %s of %s, projections %s, seed %s", meta("dim"), meta("head"), meta("heads"), meta("projections"), meta("seed"))
if (strlen(schedule_desc) > 0 && (strstrt(scheme, "rope") > 0)) { sub = sub . "\n" . schedule_desc }
set title title . "\n" . sub . "\ncontent " . meta("content") font ",9"
set xlabel "key position j  (tokens)"
set ylabel "query position i  (tokens)"
set yrange [*:*] reverse
set size ratio -1
set autoscale xfix
set autoscale yfix
set bmargin 4.5
eval footer
if (format eq "long") {
    plot data every ::1 using 2:1:3 with image notitle
} else {
    plot data matrix using ($1 + off):($2 + off):3 with image notitle
}
if (term eq "table") { unset table }
unset output
