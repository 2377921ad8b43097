# figures: decay.gp
# decay --plot (and experiments/roformer_fig2.sh, which draws through it):
# the bound with B_r on a fine grid, the Monte Carlo panels, a log grid;
# layout at both text sizes.  Drawn (table terminal): every column the
# figure draws reaches its smallest and largest value in the CSV at the
# same r (the figure draws every row of its table).
. "$(dirname "$0")/../figure.sh"
"$ROPELAB" decay --to 256 --step 0.25 --measure bound,similarity -o d.csv --plot d.svg || exit 1
echo "bound, similarity:"
layout d.svg
gnuplot -c "$plots/decay.gp" d.csv d.table table || exit 1
drawn extremes d.table d.csv bound,similarity --x r
"$ROPELAB" decay --to 64 --measure bound,similarity,mc --samples 20 -o m.csv --plot m.svg || exit 1
echo "with the Monte Carlo:"
layout m.svg
gnuplot -c "$plots/decay.gp" m.csv m.table table || exit 1
drawn extremes m.table m.csv bound,similarity,mc_self_mean,mc_self_expect,mc_ind_mean,abel_max --x r
"$ROPELAB" decay --log --from 1 --to 100000 --points 400 --measure bound,similarity -o l.csv --plot l.svg || exit 1
echo "log grid:"
layout l.svg
gnuplot -c "$plots/decay.gp" l.csv l.table table || exit 1
drawn extremes l.table l.csv bound,similarity --x r
