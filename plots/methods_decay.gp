# methods_decay.gp: plot experiments/methods_decay.sh's bound.csv, one
# `ropelab decay --method A,B,... --bins 8` sweep: RoFormer's relative
# upper bound of each method's logit (its mean over bins of r, columns
# method, r and bound by name) against r (log r), with the training
# length L and s L as vertical lines (metadata train_len, sweep_factor).
# Each key entry is the method and its settings, read from the sweep's
# per-method metadata ('factor[method:yarn]=8', ...).
# usage: gnuplot -c methods_decay.gp DATA.csv OUT.{png,svg,pdf} [TERMINAL]

data = ARG1
out = ARG2
term = ARG3
W = 900
H = 560
FS = 10
load system(sprintf("dirname '%s'", ARG0)) . "/term.gp"

hdr = system(sprintf("awk '!/^#/ { print; exit }' '%s' | tr ',' ' '", data))
colof(n) = sum [i=1:words(hdr)] (word(hdr, i) eq n ? i : 0)
cm = colof("method")
cr = colof("r")
cb = colof("bound")
if (cm == 0 || cr == 0 || cb == 0) { print "methods_decay.gp: needs columns method, r and bound in ", data; exit status 1 }
meta(k) = system(sprintf("sed -n 's/^# %s=//p' '%s' | head -n 1", k, data))
L = real(meta("train_len"))
s = real(meta("sweep_factor"))
methods = system(sprintf("sed -n 's/^# sweep_method=//p' '%s' | tr ',' ' '", data))

set datafile separator comma
set datafile commentschars "#"
# the numbers of the title and labels from the metadata (they were written in)
bins = meta("bins")
set title sprintf("Long-term decay of each method's logit: RoFormer's relative upper bound, d = %s, base %s, L = %g, s = %g", meta("dim"), meta("base"), L, s)
set xlabel "relative distance r" . (strlen(bins) > 0 ? sprintf(", each point the mean over a 1/%s octave of r", bins) : "") . "  (tokens, log scale)"
set ylabel sprintf("(1/n) Σ|S_j|, n = rot/2 = %d, × logit multiplier  (no unit)", int(real(meta("rot"))) / 2)
set logscale x 2
set xtics ("1" 1, "4" 4, "16" 16, "64" 64, "256" 256, "1024" 1024, "4096" 4096, "16384" 16384, "65536" 65536)
set xrange [1:65536]
set yrange [0:*]
set grid lt 1 lc rgb "#dddddd"  # "lc" alone draws no grid in gnuplot 5.4
set key at graph 0.99, graph 0.99 right top box opaque font ",9" spacing 1.05

set arrow 1 from first L, graph 0 to first L, graph 1 nohead dt 2 lw 1.3 lc rgb "#444444" back
set arrow 2 from first s*L, graph 0 to first s*L, graph 1 nohead dt 2 lw 1.3 lc rgb "#444444" back
# (halfway up: near the foot xpos's curve ran under the text)
set label 1 sprintf("L = %.0f ", L) at first L, graph 0.5 right tc rgb "#333333"
set label 2 sprintf("s L = %.0f ", s*L) at first s*L, graph 0.5 right tc rgb "#333333"

# a method's setting from the sweep metadata ("" where it has none)
mm(k, m) = meta(sprintf("%s\\[method:%s\\]", k, m))
opt(text, v) = strlen(v) ? sprintf(text, v) : ""
lm(m) = mm("logit_multiplier", m)
label(m) = m . opt(", s = %s", mm("factor", m)) . opt(", w = %s", mm("window", m)) \
           . opt(", %s ramp", mm("ramp", m)) . opt(", low %s", mm("low_freq_factor", m)) \
           . opt(", high %s", mm("high_freq_factor", m)) . opt(", k = %s", mm("leak", m)) . opt(", N = %s", mm("seq_len", m)) \
           . opt(", scale base %s", mm("scale_base", m)) \
           . opt(", query x %s", mm("query_scale", m)) \
           . ((strlen(lm(m)) && real(lm(m)) != 1) ? sprintf(", logit x %.4g", real(lm(m))) : "")
array col[8] = ["#000000", "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#56B4E9", "#8C6D00", "#E69F00"]
array dts[8] = [1, 2, 4, 1, 5, 1, 2, 3]
array lws[8] = [2.2, 1.6, 1.6, 1.8, 1.6, 1.6, 1.6, 1.8]
# rows of other methods are NaN: each method's rows are one run, so its line is unbroken
plot for [i=1:words(methods)] data using \
     (strcol(cm) eq word(methods, i) ? column(cr) : NaN):(column(cb)) with lines \
     lc rgb col[(i-1)%8+1] dt dts[(i-1)%8+1] lw lws[(i-1)%8+1] title label(word(methods, i))
eval term_end
