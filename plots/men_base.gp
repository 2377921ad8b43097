# men_base.gp: Men et al.'s lower bound of RoPE's base against the context
# length, log-log: ropelab's values (experiments/men_base.sh), the power
# law fitted to them, the paper's own fit (Men et al. 2024, Figure 1:
# y = 0.0424 x^1.628, x in tokens) and the published values (the paper's
# Table 1, Su's recomputation with the staged grid, kexue.fm/archives/10122).
# usage: gnuplot -c men_base.gp BASE.csv PUBLISHED.csv OUT.{png,svg,pdf} [TERMINAL]
data = ARG1
pub = ARG2
out = ARG3
term = ARG4
W = 960
H = 660
load system(sprintf("dirname '%s'", ARG0)) . "/term.gp"
fa = system(sprintf("sed -n 's/^# fit_a=//p' '%s'", data))
fk = system(sprintf("sed -n 's/^# fit_k=//p' '%s'", data))
set datafile separator comma
set datafile commentschars "#"
set logscale xy
set xrange [700:1.6e6]
set yrange [1e3:1e9]
# (the table terminal prints points in the axis format: 6 digits there)
if (term ne "table") { set format y "%.0e" }
set xtics ("1K" 1024, "4K" 4096, "16K" 16384, "64K" 65536, "256K" 262144, "1M" 1048576)
set xlabel "context length L  (tokens, log scale)"
set ylabel "base with B_r = Σ_i cos(r θ_i) >= 0 for all r < L  (no unit, log scale)"
meta(k) = system(sprintf("sed -n 's/^# %s=//p' '%s' | head -n 1", k, data))
set title sprintf("Men et al. 2024: the smallest RoPE base for context length L, d = %s\nSu's staged grid (5 decimal stages from 1000 L), every sign of B_r decided exactly", meta("dim"))
set key top left box opaque
set grid
set bmargin 5
# the command that made the table, from its metadata (it was written in)
cmdline = system(sprintf("sed -n 's/^# command=//p' '%s' | head -n 1 | sed -E 's/^[^ ]*ropelab /ropelab /; s/ (-o|--output|--plot|--progress) [^ ]+//g; s/ --progress//'", data))
set label 1 cmdline . "  (experiments/men_base.sh)" at screen 0.01, screen 0.02 font ",9"
paper(x) = 0.0424 * x**1.628
# draw order and marks: where the three agree (most lengths), Su's open
# circle is the largest mark, the paper's open triangle sits inside it
# and ropelab's small dot inside that, each drawn over the larger one, so
# none hides another (filled triangles under the circles were invisible)
plot paper(x) with lines dt 3 lw 2 lc rgb "#56B4E9" title "paper's fit 0.0424 L^1.628", \
     data using 3:9 skip 1 with lines dt 2 lw 2 lc rgb "#009E73" title sprintf("fit to ropelab: %.4g L^%.4f", fa + 0, fk + 0), \
     pub using 1:3 skip 1 with points pt 6 ps 2.6 lw 2 lc rgb "#E69F00" title "Su 2024 (two digits)", \
     pub using 1:2 skip 1 with points pt 8 ps 1.5 lw 2 lc rgb "#0072B2" title "paper, Table 1", \
     data using 3:4 skip 1 with linespoints pt 7 ps 0.7 lw 1.5 lc rgb "#CC79A7" title "ropelab (this table)"
eval term_end
