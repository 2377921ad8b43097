# figures: decay.gp
# decay --plot (and experiments/roformer_fig2.sh, which draws through it;
# report and decay --bin-stat range draw its range mode): the bound with
# B_r on a fine grid, the Monte Carlo panels, a log grid, and the range
# mode; layout at both text sizes.  Expected values from numpy
# (tests/figures/ref_decay.py: theta_i = 10000^(-2i/128), B_r = sum_i
# cos(r theta_i), the bound (1/n) sum_j |S_j|, written from RoFormer and
# Men et al., not from ropelab): on each grid, numpy's smallest and
# largest bound and B_r (and mc_self_expect = 2 B_r at sigma = 1) are
# drawn at their r; the Monte Carlo columns (no closed form per sample)
# reach the CSV's extremes.  Range mode (decay --bins 8 --bin-stat range,
# r = 1..100000): the bins tile every integer r, every bin's numpy
# smallest and largest B_r and bound are drawn at its centre (issue 36
# item 2: a log grid of 400 points showed B_r >= 4.8 where integer r
# reach -1.5), and numpy's first negative B_r lies in the bin the figure
# marks; the x axis spans 1..100000 (it stopped at the last bin's centre).
. "$(dirname "$0")/../figure.sh"
py=$(np_python) || exit 77
ref() { "$py" "$figdir/ref_decay.py" "$@"; }
"$ROPELAB" decay --to 256 --step 0.25 --measure bound,similarity -o d.csv --plot d.svg || exit 1
echo "bound, similarity:"
layout d.svg
gnuplot -c "$plots/decay.gp" d.csv d.table table || exit 1
ref grid d.csv 128 10000 > ref.csv || exit 1
drawn extremes d.table ref.csv bound,similarity --x r
"$ROPELAB" decay --to 64 --measure bound,similarity,mc --samples 20 -o m.csv --plot m.svg || exit 1
echo "with the Monte Carlo:"
layout m.svg
gnuplot -c "$plots/decay.gp" m.csv m.table table || exit 1
ref grid m.csv 128 10000 > ref.csv || exit 1
drawn extremes m.table ref.csv bound,similarity,mc_self_expect --x r
drawn extremes m.table m.csv mc_self_mean,mc_ind_mean,abel_max --x r
"$ROPELAB" decay --log --from 1 --to 100000 --points 400 --measure bound,similarity -o l.csv --plot l.svg || exit 1
echo "log grid:"
layout l.svg
gnuplot -c "$plots/decay.gp" l.csv l.table table || exit 1
ref grid l.csv 128 10000 > ref.csv || exit 1
drawn extremes l.table ref.csv bound,similarity --x r
"$ROPELAB" decay --from 1 --to 100000 --bins 8 --bin-stat range --measure bound,similarity -o g.csv --plot g.svg || exit 1
echo "range mode, every integer r in 1..100000:"
layout g.svg
gnuplot -c "$plots/decay.gp" g.csv g.table table 2>err || exit 1
ref range g.csv g.table g.svg 128 10000
echo "x axis ends at the range's end, tick 100000: $(grep -q '>100000<' g.svg && echo yes || echo no)"
