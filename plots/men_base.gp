# men_base.gp: Men et al.'s lower bound of RoPE's base against the context
# length, log-log: ropelab's values (experiments/men_base.sh), the power
# law fitted to them, and the published values (paper, Su).
# usage: gnuplot -c men_base.gp BASE.csv PUBLISHED.csv OUT.png
data = ARG1
pub = ARG2
set terminal pngcairo size 960,640 noenhanced font ",11"
set output ARG3
fa = system(sprintf("sed -n 's/^# fit_a=//p' '%s'", data))
fk = system(sprintf("sed -n 's/^# fit_k=//p' '%s'", data))
set datafile separator comma
set datafile commentschars "#"
set logscale xy
set format y "10^{%L}"
set format y "%.0e"
set xlabel "context length L (tokens)"
set ylabel "smallest base with B_r >= 0 for all r < L"
set title sprintf("Men et al. 2024 bound, d = 128, Su's staged grid; fit base = %.4g L^%.4f", fa + 0, fk + 0)
set key top left
set grid
plot data using 3:4 skip 1 with linespoints pt 7 lw 2 title "ropelab (exact signs)", \
     data using 3:9 skip 1 with lines dt 2 lw 2 title "power-law fit to ropelab", \
     pub using 1:2 skip 1 with points pt 9 ps 1.5 title "paper, Table 1", \
     pub using 1:3 skip 1 with points pt 6 ps 1.8 title "Su 2024 (kexue.fm 10122)"
