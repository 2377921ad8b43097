# methods_ratio.gp: plot experiments/methods_ratio.sh's ratio.csv, the
# table of one `ropelab freqs --method A,B,... --ramp code,paper` sweep:
# each method's theta_i / theta_i^RoPE against the pair index, log y.
# usage: gnuplot -c methods_ratio.gp DATA.csv OUT.{png,svg,pdf} [TERMINAL]
# One curve per (method, ramp) in the table's order, its rows found by
# the columns' names; the key says each method's settings from its own
# cells (an empty cell: the method does not take that option).  A ratio
# of 0 (p-RoPE's unrotated pairs) has no place on a log axis: those pairs
# are drawn on a strip below the axis' 1/64, as points only: a line from
# the last rotated pair down to the strip would cross the log axis as if
# the ratio passed through 1/2 ... 1/64 between two neighbouring pairs.
# TERMINAL "table" writes the drawn points as text into OUT (tests).

data = ARG1
out = ARG2
term = ARG3
W = 900
H = 560
FS = 10
load system(sprintf("dirname '%s'", ARG0)) . "/term.gp"

# the series: "method|ramp|label" per (method, ramp), in the table's order;
# the label from the row's own cells
series = system(sprintf("awk -F, '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; next } \
  { r = (\"ramp\" in c) ? $c[\"ramp\"] : \"\"; k = $c[\"method\"] \"|\" r; if (k in seen) next; seen[k] = 1; m = $c[\"method\"]; \
    l = m == \"linear\" ? \"linear (PI), s = \" $c[\"factor\"] : \
        m == \"ntk\" ? \"NTK-aware (static), s = \" $c[\"factor\"] : \
        m == \"yarn\" ? \"YaRN, \" r \" ramp, s = \" $c[\"factor\"] : \
        m == \"llama3\" ? \"llama3, low \" $c[\"low_freq_factor\"] \", high \" $c[\"high_freq_factor\"] : \
        m == \"dynamic\" ? \"dynamic NTK, N = \" $c[\"seq_len\"] : \
        m == \"p-rope\" ? \"p-RoPE, p = \" $c[\"fraction\"] : m; \
    gsub(/ /, \"_\", l); printf \"%%s|%%s|%%s \", m, r, l }' '%s'", data))
ns = words(series)
part(w, k) = system(sprintf("echo '%s' | cut -d'|' -f%d", w, k))
hdr = system(sprintf("awk '!/^#/ { print; exit }' '%s' | tr ',' ' '", data))
colno(name) = sum [i=1:words(hdr)] (word(hdr, i) eq name ? i : 0)
cm = colno("method"); cr = colno("ramp"); cp = colno("pair"); cq = colno("ratio")
if (cm == 0 || cp == 0 || cq == 0) { print "methods_ratio.gp: expected the columns method, pair and ratio"; exit status 1 }
array M[ns]; array R[ns]; array T[ns]
do for [i=1:ns] { w = word(series, i); M[i] = part(w, 1); R[i] = part(w, 2); T[i] = part(w, 3) }
u(s) = system(sprintf("echo '%s' | tr '_' ' '", s))

set datafile separator comma
set datafile commentschars "#"
# the title's numbers from the table's metadata (they were written in)
meta(k) = system(sprintf("sed -n 's/^# %s=//p' '%s' | head -n 1", k, data))
sf = meta("sweep_factor")
s = (strlen(sf) > 0 && strstrt(sf, ",") == 0) ? real(sf) : 0
set title sprintf("Frequency ratio θ_i / θ_i(RoPE) of each method: d = %s, base %s, L = %s%s", meta("dim"), meta("base"), meta("train_len"), s > 0 ? sprintf(", s = %g", s) : "")
set xlabel sprintf("rotary pair i, θ_i = %s^-2i/%s before scaling, high frequency left  (index)", meta("base"), meta("rot"))
set ylabel "θ_i / θ_i(RoPE)  (no unit, log scale)"
set logscale y 2
zero = 1.0/96
set yrange [zero*0.8:1.35]
set ytics ("1" 1, "1/2" 0.5, "1/4" 0.25, "1/8" 0.125, "1/16" 1.0/16, "1/32" 1.0/32, "1/64" 1.0/64, "0" zero)
# the table's pairs, rot/2 of them (it was 0..63 whatever the table held)
npair = int(real(meta("rot"))) / 2
set xrange [-0.5:npair - 0.5]
set xtics 0, (npair >= 48 ? 4 : npair >= 16 ? 2 : 1), npair - 1
set grid xtics ytics lt 1 lc rgb "#dddddd"  # "lc" alone draws no grid in gnuplot 5.4
set key at graph 0.01, graph 0.02 left bottom box opaque spacing 1.1 width 1 font ",9"

# reference lines: kept frequency (1) and frequency divided by s (one s
# for every method: the sweep's)
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lc rgb "#555555" dt 2 lw 1.2 back
set label 1 "extrapolated (θ kept, ratio 1)" at first 0.5, first 1.1 left tc rgb "#333333"
if (s > 0) {
    set arrow 2 from graph 0, first 1/s to graph 1, first 1/s nohead lc rgb "#555555" dt 2 lw 1.2 back
    set label 2 sprintf("interpolated (θ / s, ratio 1/%g)", s) at first 0.5, first 1.1/s left tc rgb "#333333"
}
set arrow 3 from graph 0, first zero*1.3 to graph 1, first zero*1.3 nohead lc rgb "#bbbbbb" dt 3 back
set label 3 "ratio 0 (θ = 0, unrotated)" at graph 0.99, first zero*1.13 right tc rgb "#333333" font ",8"

array col[8] = ["#0072B2", "#D55E00", "#009E73", "#56B4E9", "#CC79A7", "#8C6D00", "#000000", "#E69F00"]
array dts[8] = [1, 2, 1, 4, 1, 5, 1, 3]
array pts[8] = [7, 5, 9, 11, 13, 3, 6, 8]
is(i) = strcol(cm) eq M[i] && (cr == 0 || strcol(cr) eq R[i])
# each series twice: its positive ratios joined by a line (a rotated
# pair next to an unrotated one leaves a gap, not a drop), then its ratios
# of 0 as the same points on the strip, untitled
plot for [i=1:ns] data using (is(i) && column(cq) > 0 ? column(cp) : NaN):(column(cq) > 0 ? column(cq) : NaN) \
     with linespoints lc rgb col[(i-1)%8+1] dt dts[(i-1)%8+1] pt pts[(i-1)%8+1] ps 0.6 lw 1.6 \
     title u(T[i]), \
     for [i=1:ns] data using (is(i) && column(cq) <= 0 ? column(cp) : NaN):(zero) \
     with points lc rgb col[(i-1)%8+1] pt pts[(i-1)%8+1] ps 0.6 notitle
eval term_end
