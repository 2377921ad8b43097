# figures: bound_liu.gp bound_men.gp bound_pi.gp bound_yarn.gp
# bound --plot for each bound: layout at both text sizes, and what is
# drawn (table terminal).  liu: the critical dimension at each row's
# T_train (62 at 512 and 92 at 4096 for d = 128, base 10000: 2 ceil(64
# log_10000(T / 2 pi)) by hand) and the paper's LLaMA 2 point (4096, 92);
# with --tune-len the extrapolation limit's panel.  men: the smallest
# base at each length reaches the table's extremes; the published values
# of the paper's Table 1 at 1K and 4K (4.3e3, 2.7e4) are drawn.  pi:
# B(s)/d reaches its extremes at s.  yarn: one ramp per length, each
# from 1 (extrapolated) down, so its largest value 1 is drawn.
. "$(dirname "$0")/../figure.sh"
"$ROPELAB" bound liu --dim 128 --base 10000 --len 512,1024,4096,8192 --tune-len 32768 -o liu.csv --plot liu.svg || exit 1
echo "liu:"
layout liu.svg
gnuplot -c "$plots/bound_liu.gp" liu.csv liu.table table || exit 1
drawn point liu.table 512 62
drawn point liu.table 4096 92
drawn extremes liu.table liu.csv critical_dim --x len --panel 1
"$ROPELAB" bound men --dim 128 --len 1024:16384:x2 --fit -o men.csv --plot men.svg || exit 1
echo "men:"
layout men.svg
gnuplot -c "$plots/bound_men.gp" men.csv men.table table || exit 1
drawn extremes men.table men.csv base --x len
drawn point men.table 1024 4300
drawn point men.table 4096 27000
"$ROPELAB" bound pi --dim 128 --to 1024 -o pi.csv --plot pi.svg || exit 1
echo "pi:"
layout pi.svg
gnuplot -c "$plots/bound_pi.gp" pi.csv pi.table table || exit 1
drawn extremes pi.table pi.csv b_over_d --x s
"$ROPELAB" bound yarn --dim 128 --factor 8 --len 1024,4096,65536 -o yarn.csv --plot yarn.svg || exit 1
echo "yarn:"
layout yarn.svg
gnuplot -c "$plots/bound_yarn.gp" yarn.csv yarn.table table || exit 1
echo "ramps: $(grep -c '^# Curve title' yarn.table), each reaching 1:" \
  "$(awk '/^# Curve/ { c++ } /^ *[0-9]/ && $2 == 1 { one[c] = 1 } END { n = 0; for (k in one) n++; print n }' yarn.table)"
