# bound_liu.gp: `ropelab bound liu --plot`: Liu et al. 2023's critical
# dimension d_extra = 2 ceil((d/2) log_base(T_train / 2 pi)) (their eq. 13)
# against the pre-training length T_train, a step curve on a log axis, as
# experiments/liu_critical.sh draws it for three bases; the paper's LLaMA 2
# point (4096, 92) where it applies (d = 128, base 10000).  When the table
# was made with a fine-tuning setting (--tune-len or --tune-base: some row
# has tune_len != len or tune_base != base), a second panel draws the
# extrapolation limit of their eq. 16 against T_train, with T_tune.
# The table's rows are drawn as points; between them each curve is its
# equation evaluated here on a fine log grid (a step curve through the
# rows alone would hold each row's value up to the next row, where the
# ceiling in fact steps by 2 in between: d_extra = 22, not 20, at 512
# for d = 64, base 500000 between rows at 256 and 1024).
# usage: gnuplot -c bound_liu.gp DATA.csv OUT.{png,svg,pdf} [TERMINAL]

data = ARG1
out = ARG2
term = ARG3
tuned = int(system(sprintf("awk -F, '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; next } " . \
  "$c[\"tune_len\"] != $c[\"len\"] || $c[\"tune_base\"] != $c[\"base\"] { n++ } END { print n + 0 }' '%s'", data))) > 0
W = 1000
H = tuned ? 900 : 620
load system(sprintf("dirname '%s'", ARG0)) . "/common.gp"

set datafile separator comma
set datafile commentschars "#"
set datafile columnheaders
clen = col("len")
ccrit = col("critical_dim")
climit = col("extrapolation_limit")
ctl = col("tune_len")
dim = meta("dim")
rot = real(meta("rot"))
base = meta("base")
llama2 = (rot == 128 && real(base) == 10000)
# the row's T_tune and tune_base when they are one value across the table
one(c) = system(sprintf("awk -F, '/^#/ { next } !h { h = 1; next } { v[$%d] = 1 } END { n = 0; for (k in v) { n++; x = k } print (n == 1 ? x : \"\") }' '%s'", c, data))
tune_len = one(ctl)
tune_base = one(col("tune_base"))
# eq. 13 and 16 as src/core/bounds/liu.c has them, for the lines between
# the rows (gnuplot's doubles: a row's own value is the table's)
rb = real(base)
cdim(T, b) = (cd_c = 2 * ceil(rot / 2 * log(T / (2 * pi)) / log(b)), cd_c < 0 ? 0 : cd_c > rot ? rot : cd_c)
ttune(T) = strlen(tune_len) ? real(tune_len) : T
tbase = strlen(tune_base) ? real(tune_base) : rb
elimit(T) = (cl_b0 = rb ** (log(ttune(T) / (2 * pi)) / log(T / (2 * pi))), tbase > cl_b0 ? 2 * pi * tbase ** (cdim(T, rb) / rot) : ttune(T))
set samples 4000

t1 = sprintf("Liu et al. 2023, eq. 13: critical dimension d_extra = 2 ceil((d/2) log_base(T_train / 2π)), d = %g", rot)
if (sprintf("%g", rot) ne dim) { t1 = t1 . sprintf(" rotated of %s", dim) }
t1 = t1 . (sprintf("%g", rot) ne dim ? "\n" : ", ") . sprintf("base = %s", base)
if (strlen(schedule_desc) > 0) { t1 = t1 . "\n" . schedule_desc }
if (tuned) {
    t1 = t1 . "\nbelow, eq. 16: extrapolation limit after fine-tuning at " . \
         (strlen(tune_len) ? sprintf("T_tune = %s", tune_len) : "each row's T_tune") . \
         (strlen(tune_base) ? sprintf(" with base %s", tune_base) : "")
}
ntl = 1 + (sprintf("%g", rot) ne dim) + (strlen(schedule_desc) > 0) + tuned

stats data using clen nooutput
lmin = STATS_min
lmax = STATS_max
xlo = STATS_min / 1.3
xhi = STATS_max * 1.3
if (llama2) { xlo = xlo < 4096 / 1.3 ? xlo : 4096 / 1.3; xhi = xhi > 4096 * 1.3 ? xhi : 4096 * 1.3 }

top = 1.0 - (30.0 + 16.0 * ntl) / H
bot = 80.0 / H
mid = tuned ? bot + (top - bot) * 0.45 : bot
set lmargin at screen 0.10
set rmargin at screen 0.97
set grid lt 1 lc rgb "#dddddd"  # "lc" alone draws no grid in gnuplot 5.4
set logscale x
set xrange [xlo:xhi]
# tics at powers of 2 in K/M tokens, at most about 11
e0 = ceil(log(xlo) / log(2))
e1 = floor(log(xhi) / log(2))
es = (e1 - e0) > 10 ? 2 : 1
tl(e) = e >= 20 ? sprintf("%gM", 2.0**(e-20)) : e >= 10 ? sprintf("%gK", 2.0**(e-10)) : sprintf("%g", 2.0**e)
xt_lab = "set xtics ("
xt_none = "set xtics ("
do for [e=e0:e1:es] {
    xt_lab = xt_lab . sprintf("%s'%s' %.17g", e > e0 ? ", " : "", tl(e), 2.0**e)
    xt_none = xt_none . sprintf("%s'' %.17g", e > e0 ? ", " : "", 2.0**e)
}
xt_lab = xt_lab . ")"
xt_none = ((term eq "table") ? xt_lab : xt_none . ")")
set multiplot title t1 font ",11"
eval footer

set tmargin at screen top
set bmargin at screen tuned ? mid + 0.012 : bot
if (tuned) { unset xlabel; eval xt_none } else { set xlabel "pre-training length T_train (tokens, log scale)"; eval xt_lab }
set ylabel "critical dimension d_extra  (dimensions)"
set yrange [0:rot + 8]
set key bottom right Left reverse box opaque font ",10" samplen 2.5
set arrow 1 from graph 0, first rot to graph 1, first rot nohead dt 2 lw 1.2 lc rgb "#444444" back
set label 1 (sprintf("%g", rot) ne dim ? sprintf("d = %g: every rotated dimension", rot) : sprintf("d = %g: every dimension", rot)) at graph 0.015, first rot - 4 left tc rgb "#333333" font ",10"
cmd = sprintf("data using %d:%d with points pt 7 ps 0.9 lc rgb '#0072B2' title 'critical dimension (this table)', ", clen, ccrit)
cmd = cmd . sprintf("[T=%.17g:%.17g] cdim(T, rb) with steps lw 1.5 lc rgb '#0072B2' title 'eq. 13 between the rows'", lmin, lmax)
if (llama2) { cmd = cmd . ", '+' using (4096):(92) every ::0::0 with points pt 6 ps 2 lw 2 lc rgb '#D55E00' title 'LLaMA 2: 92 at 4096 (paper)'" }
eval("plot " . cmd)

if (tuned) {
    unset arrow
    unset label
    eval footer
    set tmargin at screen mid - 0.012
    set bmargin at screen bot
    set xlabel "pre-training length T_train (tokens, log scale)"
    eval xt_lab
    set logscale y
    # the range from the data (a constant limit would be an empty range);
    # stats keeps to the y range in force: the top panel's
    set autoscale y
    stats data using climit nooutput
    ylo = STATS_min
    yhi = STATS_max
    stats data using ctl nooutput
    ylo = STATS_min < ylo ? STATS_min : ylo
    yhi = STATS_max > yhi ? STATS_max : yhi
    set yrange [ylo / 1.5 : yhi * 1.5]
    # tics at 1, 2, 3, 5, 7 x 10^k (a range this narrow may hold no power
    # of 10), written 2e6: decimal, unlike the binary K/M of the x axis
    set ytics ()
    do for [k=floor(log10(ylo / 1.5)):ceil(log10(yhi * 1.5))] {
        do for [m in "1 2 3 5 7"] {
            v = real(m) * 10.0**k
            if (v >= ylo / 1.5 && v <= yhi * 1.5) { set ytics add ((k >= 4 ? sprintf("%se%d", m, k) : sprintf("%g", v)) v) }
        }
    }
    # one T_tune: a tic at it, so a limit equal to it reads off exactly
    # (a flat limit at 32768 had one tic, 3e4, to read it by)
    if (strlen(tune_len)) { set ytics add (tune_len real(tune_len)) }
    set ylabel "extrapolation limit (tokens, log scale)"
    set key top left Left reverse box opaque font ",10" samplen 2.5 height 0.6  # (the box cut the last entry's underscore)
    cmd = sprintf("data using %d:%d with points pt 7 ps 0.9 lc rgb '#009E73' title 'extrapolation limit: 2π tune_base^(d_extra/d) if tune_base > critical base, else T_tune', ", clen, climit)
    cmd = cmd . sprintf("[T=%.17g:%.17g] elimit(T) with steps lw 1.5 lc rgb '#009E73' notitle, ", lmin, lmax)
    cmd = cmd . sprintf("data using %d:%d with lines dt 2 lw 1.4 lc rgb '#444444' title '%s'", clen, ctl, strlen(tune_len) ? "T_tune = " . tune_len : "T_tune")
    eval("plot " . cmd)
}
unset multiplot
if (term eq "table") { unset table }
unset output
