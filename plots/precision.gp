# precision.gp: plot a `ropelab precision --by position` CSV: one panel per
# pipeline, its worst errors against the exact values per bin of positions
# (cos/sin entry, rotation angle, logit at the fixed distance) against the
# position, log-log.  Pipelines whose rows are identical (vLLM's and
# transformers' tables, SLEEF's where its ulps never reach a bin's worst)
# share one panel, titled with all their names; panels are ordered by the
# table's format (float64, float32, bfloat16, float16), so a row of the
# grid holds one format where it can.
# usage: gnuplot -c precision.gp DATA.csv OUT.{png,svg,pdf} [TERMINAL]
# (TERMINAL table: the drawn points as text, and each panel's group on stderr)

data = ARG1
out = ARG2
term = ARG3
if (strlen(term) == 0) {
    ext = out[strlen(out)-2:]
    term = (ext eq "png") ? "pngcairo" : (ext eq "svg") ? "svg" : (ext eq "pdf") ? "pdfcairo" : ""
    if (strlen(term) == 0) { print "precision.gp: OUT must end in .png, .svg or .pdf"; exit status 1 }
}
# the groups of identical series, as NAME=NAME=... (first name drawn),
# ordered by format rank, then by first appearance
grp = "awk -F, '!/^#/ && $1 != \"precision\" && $1 != \"\" { if (!($1 in sig)) o[++n] = $1; sig[$1] = sig[$1] \"|\" $3 \",\" $4 \",\" $5 \",\" $6 \",\" $7 } " . \
      "function rk(x) { return x ~ /exact|fp64/ ? 0 : x ~ /f32|fp32/ ? 1 : x ~ /bf16/ ? 2 : x ~ /f16/ ? 3 : 4 } " . \
      "END { for (r = 0; r <= 4; r++) for (i = 1; i <= n; i++) { p = o[i]; if (rk(p) != r || (p in used)) continue; g = p; used[p] = 1; " . \
      "for (j = i + 1; j <= n; j++) if (!(o[j] in used) && sig[o[j]] == sig[p]) { g = g \"=\" o[j]; used[o[j]] = 1 } printf \"%%s \", g } }' '%s'"
pipes = system(sprintf(grp, data))
np = words(pipes)
if (np == 0) { print "precision.gp: no rows"; exit status 1 }
# five columns: float64 and the four float32 series on one row, the four
# 16-bit ones on the next, for the default set of pipelines
cols = (np >= 5) ? 5 : np
rows = int((np + cols - 1) / cols)
w = (cols < 2) ? 700 : 400 * cols  # one panel: room for the title and the key's row
h = 320 * rows + 60 + ((cols >= 3) ? 0 : 17)
if (term eq "table")    { set table out }
if (term eq "pngcairo") { set terminal pngcairo size w,h noenhanced font ",10" }
if (term eq "svg")      { set terminal svg size w,h noenhanced dynamic font ",10" }
if (term eq "pdfcairo") { set terminal pdfcairo size (w/100.0)*0.8,(h/100.0)*0.8 noenhanced font ",8" }
set output out

dim = system(sprintf("sed -n 's/^# dim=//p' '%s' | head -n 1", data))
base = system(sprintf("sed -n 's/^# base=//p' '%s' | head -n 1", data))
method = system(sprintf("sed -n 's/^# method=//p' '%s' | head -n 1", data))
dist = system(sprintf("sed -n 's/^# distance=//p' '%s' | head -n 1", data))
sample = system(sprintf("sed -n 's/^# sample=//p' '%s' | head -n 1", data))
# --against P: every difference is to pipeline P, not to the exact values
against = system(sprintf("sed -n 's/^# compared_with=//p' '%s' | head -n 1", data))
if (strlen(against) == 0) { against = "exact" }

set datafile separator comma
set datafile commentschars "#"
set logscale xy
set format y "1e%T"
set format x "%.0s%c"
# the table terminal prints points in the axis formats: keep every digit
if (term eq "table") { set format xy "%.17g" }
set grid
set xlabel "position m (worst over each bin)"
# one unit per axis: the cos/sin entry and the logit are plain numbers
# (left), the angle is in radians (right); the two axes share one range so
# the curves still compare where they meet (|d cos| <= |d angle|)
set ylabel (against eq "exact") ? "|error| vs exact: entry, logit (no unit)" : sprintf("|difference| vs %s: entry, logit (no unit)", against)
set y2label "angle (rad)"
# the x axis ends where the positions end (no empty decade after them)
set autoscale xfix
# the y range from the data: the decades around the smallest and largest
# positive error any panel draws (one range for every panel, so they
# compare; it was 1e-17..1 whatever the data: a bf16 table's 1e-4..1e-2
# took a sixth of the height)
yr = system(sprintf("awk -F, '!/^#/ && $1 != \"precision\" && $3 + 0 > 0 { for (i = 4; i <= 7; i++) if ($i + 0 > 0) { v = $i + 0; " . \
                    "if (lo == \"\" || v < lo) lo = v; if (v > hi) hi = v } } END { if (lo == \"\") print \"-17 0\"; " . \
                    "else { a = int(log(lo) / log(10) + 1000) - 1000; b = -(int(-log(hi) / log(10) + 1000) - 1000); " . \
                    "if (10 ^ a > lo) a--; if (10 ^ b < hi) b++; if (b <= a) b = a + 1; printf \"%%d %%d\", a, b } }' '%s'", data))
ylo = 10.0 ** int(word(yr, 1))
yhi = 10.0 ** int(word(yr, 2))
set yrange [ylo:yhi]
# a tick every decade, every second or fourth over many decades
ystep = (yhi / ylo > 1e12) ? 100 : (yhi / ylo > 1e24) ? 1e4 : 10
set ytics ylo, ystep, yhi nomirror
set logscale y2
set y2range [ylo:yhi]
set y2tics ylo, ystep, yhi
set format y2 (term eq "table") ? "%.17g" : "1e%T"
W = w
load system(sprintf("dirname '%s'", ARG0)) . "/text.gp"
wrap_in = sprintf("worst %s per bin of positions (%s positions), logit at distance r = %s%s", (against eq "exact") ? "error" : "difference", sample eq "all" ? "all" : "log-spaced", dist, np > 1 ? "; pipelines with identical rows share a panel" : "")
eval wrap
t1 = sprintf("RoPE precision envelope%s: %s, d = %s, base = %s\n", (against eq "exact") ? "" : " against ".against, method, dim, base) . wrap_out
ntl = nlines(t1)
# empty title lines make room for the key (drawn last): one row on a
# page of three panels or more, two below that (gnuplot breaks the row
# where the PNG's wider characters do not fit, 700 px for one panel)
keyrows = (cols >= 3) ? 1 : 2
set multiplot layout rows,cols title t1 . ((keyrows == 1) ? "\n " : "\n \n ")
do for [k=1:np] {
    g = word(pipes, k)
    e = strstrt(g, "=")
    p = (e > 0) ? g[1:e-1] : g
    if (term eq "table") { print "panel ", k, ": ", g }
    # the names, two to a line
    set title system(sprintf("echo '%s' | awk -F= '{ for (i = 1; i <= NF; i++) printf \"%%s%%s\", $i, i == NF ? \"\" : i %% 2 ? \" = \" : \" =\\n\" }'", g))
    if (against ne "exact") { set title sprintf("%s against %s", g, against) }
    unset key
    # the angle's error is drawn last, thin and dashed, because it is the
    # entry's wherever both are small (|d cos| <= |d angle|)
    plot data using (stringcolumn(1) eq p && $3 > 0 ? $3 : NaN):(($4 > $5 ? $4 : $5) > 0 ? ($4 > $5 ? $4 : $5) : NaN) with linespoints pt 7 ps 0.5 lw 4 lc rgb "#74a9cf" title "cos/sin entry", \
         data using (stringcolumn(1) eq p && $3 > 0 ? $3 : NaN):($7 > 0 ? $7 : NaN) with linespoints pt 5 ps 0.4 lw 2 lc rgb "#d62728" title "logit, unit-variance q.k", \
         data using (stringcolumn(1) eq p && $3 > 0 ? $3 : NaN):($6 > 0 ? $6 : NaN) with lines lw 1.5 dt (6,4) lc rgb "#000000" axes x1y2 title "angle (rad: right axis)"
    # the x range drawn, for tests: it must end at the last position
    if (term eq "table") { print "panel ", k, " x range: ", sprintf("%.17g %.17g", GPVAL_X_MIN, GPVAL_X_MAX) }
    if (term eq "table") { print "panel ", k, " y range: ", sprintf("%.17g %.17g", GPVAL_Y_MIN, GPVAL_Y_MAX) }
}
# the key once, across the page in the row under the title: in the first
# panel the curves ran through it (a 16-bit pipeline's reach the top)
if (term ne "table") {
    set lmargin at screen 0.02
    set rmargin at screen 0.98
    set tmargin at screen 1 - (4.0 + 17.0 * ntl) / h
    set bmargin at screen 1 - (4.0 + 17.0 * (ntl + keyrows)) / h
    unset border; unset tics; unset xlabel; unset ylabel; unset y2label; unset title; unset grid; unset logscale
    set xrange [0:1]; set yrange [0:1]
    set key center center horizontal Left reverse samplen 2 font ",9"
    plot NaN with linespoints pt 7 ps 0.5 lw 4 lc rgb "#74a9cf" title "cos/sin entry", \
         NaN with linespoints pt 5 ps 0.4 lw 2 lc rgb "#d62728" title "logit, unit-variance q.k", \
         NaN with lines lw 1.5 dt (6,4) lc rgb "#000000" title "angle (rad: right axis)"
}
unset multiplot
if (term eq "table") { unset table }
