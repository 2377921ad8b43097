# liu_critical.gp: Liu et al.'s critical dimension against T_train
# (`ropelab bound liu`, experiments/liu_critical.sh).
# usage: gnuplot -c liu_critical.gp DIR OUT.{png,svg,pdf} [TERMINAL]
dir = ARG1
out = ARG2
term = ARG3
W = 960
H = 600
load system(sprintf("dirname '%s'", ARG0)) . "/term.gp"
set datafile separator comma
set datafile commentschars "#"
set logscale x
set xlabel "pre-training length T_train (tokens)"
set ylabel "critical dimension d_extra  (dimensions)"
d = system(sprintf("sed -n 's/^# dim=//p' '%s/critical_500.csv' | head -n 1", dir))
set title sprintf("Liu et al. 2023 eq. 13: d_extra = 2 ceil((d/2) log_base(T_train / 2 pi)), d = %s", d)
set key bottom right
set grid
# up to d (a critical dimension is at most d), the lengths the tables hold
set yrange [0:real(d) + 8]
set autoscale xfix
plot dir."/critical_500.csv" using 4:7 skip 1 with steps lw 2 title "base 500", \
     dir."/critical_10000.csv" using 4:7 skip 1 with steps lw 2 title "base 10000", \
     dir."/critical_1000000.csv" using 4:7 skip 1 with steps lw 2 title "base 1e6", \
     "+" using (4096):(92) every ::0::0 with points pt 7 ps 2 title "LLaMA 2: 92 at 4096 (paper)"
eval term_end
