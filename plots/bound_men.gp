# bound_men.gp: `ropelab bound men --plot`: Men et al.'s lower bound of
# RoPE's base against the context length L, log-log (their Figure 1;
# experiments/men_base.sh draws the same for d = 128, L = 1K..1M).
#   - the bases of this table (column base);
#   - with --fit, the power law fitted to them (column fit_base, the
#     metadata fit_a, fit_k);
#   - for d = rot = 128 and plain RoPE, the published values for
#     comparison: the paper's fit y = 0.0424 x^1.628 (Men et al. 2024,
#     Figure 1, x in tokens), its Table 1 and Su's recomputation with the
#     staged grid (kexue.fm/archives/10122), two digits each, the same
#     numbers as experiments/men_base.sh.
# The title names the search (staged: its stages and start; fine: its
# tolerance) and any method other than RoPE.
# usage: gnuplot -c bound_men.gp DATA.csv OUT.{png,svg,pdf} [TERMINAL]

data = ARG1
out = ARG2
term = ARG3
W = 1000
H = 680
load system(sprintf("dirname '%s'", ARG0)) . "/common.gp"

set datafile separator comma
set datafile commentschars "#"
set datafile columnheaders
clen = col("len")
cbase = col("base")
cfit = col("fit_base")
dim = meta("dim")
rot = meta("rot")
search = meta("search")
published = (dim eq "128" && rot eq "128" && strlen(schedule_desc) == 0)

$pub << EOD
len,paper,su
1024,4.3e3,4.3e3
2048,1.6e4,1.2e4
4096,2.7e4,2.7e4
8192,8.4e4,8.4e4
16384,3.1e5,2.3e5
32768,6.4e5,6.3e5
65536,2.1e6,2.1e6
131072,7.8e6,4.9e6
262144,3.6e7,2.4e7
524288,6.4e7,5.8e7
1048576,5.1e8,6.5e7
EOD

t1 = sprintf("Men et al. 2024: the smallest RoPE base on the search grid with B_r = Σ_i cos(r θ_i) >= 0 for all r < L, d = %s", dim)
if (rot ne dim) { t1 = t1 . sprintf(" (%s rotated)", rot) }
if (strlen(schedule_desc) > 0) { t1 = t1 . "\n" . schedule_desc . " (the base searched is its base)" }
if (search eq "fine") {
    t2 = sprintf("fine search: steps of 1 + %s up from the staged grid's point below (%s stages from %s L)", meta("tolerance"), meta("stages"), meta("start_factor"))
} else {
    t2 = sprintf("Su's staged grid: %s decimal stages from %s L", meta("stages"), meta("start_factor"))
}
t1 = t1 . "\n" . t2 . "; signs of B_r exact"
ntl = 2 + (strlen(schedule_desc) > 0)

# one column per stats call: two columns of two points make gnuplot warn
# about a fit's errors
stats data using clen nooutput
lmin = STATS_min
lmax = STATS_max
stats data using cbase nooutput
ylo = STATS_min
yhi = STATS_max
xlo = lmin / 1.4
xhi = lmax * 1.4
if (published) {
    # the published values on the table's lengths set the y range too
    stats $pub using ($1 >= lmin / 1.01 && $1 <= lmax * 1.01 ? $2 : NaN) nooutput
    ylo = STATS_min < ylo ? STATS_min : ylo
    yhi = STATS_max > yhi ? STATS_max : yhi
}
set logscale xy
set xrange [xlo:xhi]
set yrange [10 ** floor(log10(ylo)):10 ** ceil(log10(yhi))]
# (the table terminal prints points in the axis format: 6 digits there)
if (term ne "table") { set format y "%.0e" }
# tics at powers of 2 in K/M tokens, at most about 11
e0 = ceil(log(xlo) / log(2))
e1 = floor(log(xhi) / log(2))
es = (e1 - e0) > 10 ? 2 : 1
set xtics ()
do for [e=e0:e1:es] { set xtics add (e >= 20 ? sprintf("%gM", 2.0**(e-20)) : e >= 10 ? sprintf("%gK", 2.0**(e-10)) : sprintf("%g", 2.0**e) 2.0**e) }
set xlabel "context length L (tokens, log scale)"
set ylabel "smallest base with B_r >= 0 for every r < L  (log scale)"
set lmargin at screen 0.10
set rmargin at screen 0.97
set tmargin at screen 1.0 - (30.0 + 16.0 * ntl) / H
set bmargin at screen 80.0 / H
set title t1 font ",11"
eval footer
set grid lt 1 lc rgb "#dddddd"  # "lc" alone draws no grid in gnuplot 5.4
set key top left Left reverse box opaque font ",10" samplen 2.5

cmd = ""
if (published) {
    cmd = cmd . "0.0424 * x**1.628 with lines dt 3 lw 2 lc rgb '#56B4E9' title \"paper's fit 0.0424 L^1.628\", "
    # where the two agree, the paper's open triangle sits inside Su's
    # larger open circle, drawn after it (filled triangles under the
    # circles were invisible), and this table's small dot inside both
    cmd = cmd . "$pub using 1:3 with points pt 6 ps 2.6 lw 2 lc rgb '#E69F00' title 'Su 2024 (two digits)', "
    cmd = cmd . "$pub using 1:2 with points pt 8 ps 1.5 lw 2 lc rgb '#0072B2' title 'paper, Table 1', "
}
if (cfit > 0) {
    cmd = cmd . sprintf("data using %d:%d with lines dt 2 lw 2 lc rgb '#009E73' title sprintf('fit to this table: %%.4g L^%%.4f', %s + 0, %s + 0), ", clen, cfit, meta("fit_a"), meta("fit_k"))
}
cmd = cmd . sprintf("data using %d:%d with linespoints pt 7 ps 0.7 lw 1.5 lc rgb '#CC79A7' title 'ropelab (this table)'", clen, cbase)
eval("plot " . cmd)
if (term eq "table") { unset table }
unset output
