# bound_yarn.gp: `ropelab bound yarn --plot`: YaRN's ramp (Peng et al.
# 2023) from the correction range of each row, as experiments/yarn_ramp.sh
# draws it for L = 4096 from three freqs tables.  Pair i keeps the weight
# gamma_i of its plain frequency: theta_i = theta_i^plain (gamma_i +
# (1 - gamma_i) / s) (1 = extrapolated, 0 = interpolated), where
#   code ramp (--ramp code): gamma_i = 1 - clamp((i - low) / (high - low))
#     on the range used (low, high columns: rounded outward with
#     --truncate yes, clamped to [0, rot - 1] either way), high - low = 0
#     read as 0.001 (HF, vLLM); ggml (--variant ggml) divides by
#     max(0.001, high - low).  They differ when the range lies below pair
#     0 (high < low): HF and vLLM keep every pair, ggml all but pair 0
#     interpolated (src/core/schedules/yarn.c);
#   paper ramp (--ramp paper, eq. 18-20): gamma_i = clamp((r_i - beta_slow)
#     / (beta_fast - beta_slow)), r_i = L theta_i / (2 pi), theta_i =
#     base^(-2i/rot).
# With --truncate yes the code ramp on the unrounded range (low_exact,
# high_exact clamped to [0, rot - 1]: what --truncate no uses) is drawn
# dashed beside it.  The
# unrounded range is the pair where r = beta_fast and beta_slow (vertical
# lines).  One colour per row (length L).  More than 6 rows: the
# correction range itself against L instead (a band from low_exact to
# high_exact, the used low and high as lines).
# usage: gnuplot -c bound_yarn.gp DATA.csv OUT.{png,svg,pdf} [TERMINAL]

data = ARG1
out = ARG2
term = ARG3
nrows = int(system(sprintf("awk '/^#/ { next } h { n++ } { h = 1 } END { print n + 0 }' '%s'", data)))
byrange = nrows > 6
W = 1000
H = byrange ? 640 : 660
load system(sprintf("dirname '%s'", ARG0)) . "/common.gp"

set datafile separator comma
set datafile commentschars "#"
set datafile columnheaders
paper = meta("ramp") eq "paper"
truncate = meta("truncate") eq "yes"
rot = int(real(meta("rot")))
npairs = rot / 2
# row k's value of column NAME
val(k, name) = real(system(sprintf("awk -F, -v k=%d '/^#/ { next } !h { h = 1; next } ++n == k { print $%d; exit }' '%s'", k, col(name), data)))
clampv(x) = x < 0 ? 0 : x > 1 ? 1 : x
ggml = meta("variant") eq "ggml"
span(lo, hi) = ggml ? (hi - lo > 0.001 ? hi - lo : 0.001) : (hi == lo ? 0.001 : hi - lo)
code(i, lo, hi) = 1 - clampv((i - lo) / span(lo, hi))
# the unrounded range as --truncate no uses it: clamped to [0, rot - 1]
clo(x) = x < 0 ? 0 : x
chi(x) = x > rot - 1 ? rot - 1 : x
# a vertical line or label at pair x only inside the x range
inx(x) = x >= -0.5 && x <= npairs - 0.5
paperg(i, L, b, bf, bs) = clampv((L * b**(-2.0 * i / rot) / (2 * pi) - bs) / (bf - bs))

# the title: the setting of every row; L when there is one
t1 = sprintf("YaRN (Peng et al. 2023): %s, d = %s", byrange ? "correction range against L" : "ramp per rotary pair", meta("dim"))
if (meta("rot") ne meta("dim")) { t1 = t1 . sprintf(" (%s rotated)", meta("rot")) }
t1 = t1 . sprintf(", base = %s", meta("base"))
if (nrows == 1) { t1 = t1 . sprintf(", L = %g", val(1, "len")) }
t1 = t1 . sprintf(", s = %g: attention factor %.6g", val(1, "factor"), val(1, "attention_factor"))
if (byrange) {
    t2 = paper ? "paper ramp (eq. 18-20): the band holds the pairs with β_slow < r = L/λ < β_fast, where it runs" : \
         truncate ? "code ramp: the band is the unrounded range, the lines the range used, rounded outward (--truncate yes)" : \
         "code ramp on the unrounded range (--truncate no): the band"
} else {
    t2 = paper ? "paper ramp, linear in r = L/λ (eq. 18-20); pair where r = β_fast, β_slow dotted" : \
         truncate ? "code ramp on the range rounded outward (--truncate yes); dashed: the unrounded range (--truncate no)" : \
         "code ramp on the unrounded range (--truncate no)"
}
if (val(1, "factor") == 1) { t2 = t2 . " (s = 1: no θ_i changes)" }
t1 = t1 . "\n" . schedule_desc . "\n" . t2
ntl = 3

palette = "#0072B2 #D55E00 #009E73 #CC79A7 #E69F00 #56B4E9"
lc(k) = word(palette, (k - 1) % 6 + 1)

set lmargin at screen 0.09
set rmargin at screen 0.97
set tmargin at screen 1.0 - (30.0 + 16.0 * ntl) / H
set grid lt 1 lc rgb "#dddddd"  # "lc" alone draws no grid in gnuplot 5.4
set title t1 font ",11"

if (!byrange) {
    # the key below, two columns: its rows set the bottom margin
    nkey = nrows * (!paper && truncate ? 2 : 1)
    set bmargin at screen (100.0 + 17.0 * int((nkey + 1) / 2)) / H
    eval footer
    set xlabel "rotary pair i  (index)"
    set ylabel "γ_i: share of θ_i kept, 1 = extrapolated θ_i, 0 = θ_i / s  (no unit)"
    set xrange [-0.5:npairs - 0.5]
    set yrange [-0.05:1.1]
    set ytics 0, 0.2, 1
    set key at screen 0.5, screen 26.0 / H center bottom horizontal Left reverse box font ",10" maxcols 2 samplen 2.5
    set datafile nocolumnheaders  # else '+' takes its first sample for a header
    cmd = ""
    do for [k=1:nrows] {
        L = val(k, "len")
        lo = val(k, "low")
        hi = val(k, "high")
        le = val(k, "low_exact")
        he = val(k, "high_exact")
        tag = nrows > 1 ? sprintf("L = %.10g: ", L) : ""
        # the unrounded range: where a pair turns beta_fast, beta_slow times within L
        if (inx(le)) { eval sprintf("set arrow %d from first %.17g, graph 0 to first %.17g, graph 1 nohead dt 3 lw 1.2 lc rgb '%s' back", 2 * k - 1, le, le, lc(k)) }
        if (inx(he)) { eval sprintf("set arrow %d from first %.17g, graph 0 to first %.17g, graph 1 nohead dt 3 lw 1.2 lc rgb '%s' back", 2 * k, he, he, lc(k)) }
        if (nrows == 1 && inx(le)) {
            set label 1 sprintf("i = %.2f: r = L/λ = β_fast = %g ", le, val(1, "beta_fast")) at first le, graph 0.45 right tc rgb "#333333"
        }
        if (nrows == 1 && inx(he)) {
            set label 2 sprintf(" i = %.2f: r = β_slow = %g", he, val(1, "beta_slow")) at first he, graph 0.55 left tc rgb "#333333"
        }
        if (paper) {
            cmd = cmd . sprintf("[i=0:%d:1] '+' using (i):(paperg(i, %.17g, %.17g, %.17g, %.17g)) with linespoints lw 2 pt 7 ps 0.5 lc rgb '%s' title '%spaper ramp', ", \
                                npairs - 1, L, real(meta("base")), val(k, "beta_fast"), val(k, "beta_slow"), lc(k), tag)
        } else {
            cmd = cmd . sprintf("[i=0:%d:1] '+' using (i):(code(i, %.17g, %.17g)) with linespoints lw 2 pt 7 ps 0.5 lc rgb '%s' title '%s%s%s .. %s%s', ", \
                                npairs - 1, lo, hi, lc(k), tag, nrows > 1 ? "" : "code ramp, range ", \
                                sprintf(truncate ? "%g" : "%.2f", lo), sprintf(truncate ? "%g" : "%.2f", hi), truncate ? " (rounded)" : "")
            if (truncate) {
                cmd = cmd . sprintf("[i=0:%d:1] '+' using (i):(code(i, %.17g, %.17g)) with linespoints lw 1.3 dt 2 pt 6 ps 0.6 lc rgb '%s' title '%s%s%.2f .. %.2f unrounded', ", \
                                    npairs - 1, clo(le), chi(he), lc(k), tag, nrows > 1 ? "" : "code ramp, range ", clo(le), chi(he))
            }
        }
    }
    eval("plot sample " . cmd[1:strlen(cmd) - 2])  # "sample": the first range is a sampling range
} else {
    set bmargin at screen 80.0 / H
    eval footer
    clen = col("len")
    set logscale x
    set autoscale xfix
    stats data using clen nooutput
    e0 = ceil(log(STATS_min) / log(2) - 1e-9)
    e1 = floor(log(STATS_max) / log(2) + 1e-9)
    es = (e1 - e0) > 10 ? 2 : 1
    set xtics ()
    do for [e=e0:e1:es] { set xtics add (e >= 20 ? sprintf("%gM", 2.0**(e-20)) : e >= 10 ? sprintf("%gK", 2.0**(e-10)) : sprintf("%g", 2.0**e) 2.0**e) }
    set xlabel "original context length L (tokens, log scale)"
    set ylabel "rotary pair  (index)"
    set yrange [0:*]
    set key top left Left reverse box opaque font ",10" samplen 2.5
    rlab = paper ? "unrounded range (where r = β_fast, β_slow)" : "unrounded range (low_exact .. high_exact)"
    cmd = sprintf("data using %d:%d:%d with filledcurves fs transparent solid 0.25 noborder lc rgb '#0072B2' title '%s', ", clen, col("low_exact"), col("high_exact"), rlab)
    if (!paper) {
        cmd = cmd . sprintf("data using %d:%d with linespoints pt 7 ps 0.5 lw 1.6 lc rgb '#D55E00' title 'low used%s', ", clen, col("low"), truncate ? " (rounded down)" : "")
        cmd = cmd . sprintf("data using %d:%d with linespoints pt 5 ps 0.5 lw 1.6 lc rgb '#009E73' title 'high used%s', ", clen, col("high"), truncate ? " (rounded up)" : "")
    }
    cmd = cmd . sprintf("%d with lines dt 2 lw 1.2 lc rgb '#444444' title 'last pair, %d (high is clamped to rot - 1 = %d, as HF, vLLM, ggml do)'", npairs - 1, npairs - 1, rot - 1)
    eval("plot " . cmd)
}
if (term eq "table") { unset table }
unset output
