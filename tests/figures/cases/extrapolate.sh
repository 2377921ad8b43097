# figures: extrapolate.gp
# extrapolate --plot (and experiments/extrapolate.sh): four panels,
# layout at both text sizes (a method list: the key and the notes under
# it).  Drawn (table terminal): in panel (a) each series' retrieval
# probability at n = N reaches its extremes over r > 0 (rope's methods
# are series of their own); panel (b) each series' entropy over the
# lengths; panel (c) the unseen fraction of alibi (the largest there).
# Series that panels (b) and (c) merge (within 0.4% of the span) are
# drawn once: their shared curve is one of theirs, so a merged series'
# extremes are checked only where it is drawn alone.  Closed form of
# panel (c): ALiBi sees relative distances, so a causal pair (i >= j) of
# a length-n sequence is unseen when i - j >= L = 16; of n(n+1)/2 pairs,
# sum_{k=1..n-16} k are: 136/528 = 0.257576 at n = 32, 1176/2080 =
# 0.565385 at n = 64, none at n <= 16.  The three panels `report` draws
# (retrieval, entropy, unseen in a row): layout (the entropy panel's
# title ran into the unseen panel's, cut to the panel's width it ran into
# the page's title) and the unseen fraction's closed form in panel 3.
. "$(dirname "$0")/../figure.sh"
"$ROPELAB" extrapolate --train-len 16 --eval-len 64 --dim 8 --samples 8 --scheme nope,alibi,rope \
  --method rope,linear,yarn -o x.csv --plot x.svg 2>/dev/null || exit 1
layout x.svg
gnuplot -c "$plots/extrapolate.gp" x.csv x.table table 2>/dev/null || exit 1
for s in nope alibi; do
  drawn extremes x.table x.csv value --x r --where scheme=$s --where measure=retrieval --where stat=probability \
    --where len=64 --positive --panel 1 | sed "s/^/(a) $s: /"
done
for m in rope linear yarn; do
  drawn extremes x.table x.csv value --x r --where scheme=rope --where method=$m --where measure=retrieval \
    --where stat=probability --where len=64 --positive --panel 1 | sed "s/^/(a) rope\/$m: /"
done
drawn extremes x.table x.csv value --x len --where scheme=alibi --where measure=entropy --panel 2 | sed "s/^/(b) alibi: /"
drawn extremes x.table x.csv value --x len --where scheme=alibi --where measure=unseen --where pair=all --panel 3 |
  sed "s/^/(c) alibi: /"
drawn point x.table 32 0.257576
drawn point x.table 64 0.565385
drawn point x.table 16 0
"$ROPELAB" extrapolate --train-len 16 --eval-len 64 --dim 8 --samples 8 --scheme alibi,rope \
  --measure retrieval,entropy,unseen -o y.csv --plot y.svg 2>/dev/null || exit 1
echo "retrieval, entropy, unseen:"
layout y.svg
gnuplot -c "$plots/extrapolate.gp" y.csv y.table table 2>/dev/null || exit 1
echo "panels: $(grep -c '^# Curve 0 of' y.table)"
drawn extremes y.table y.csv value --x len --where scheme=alibi --where measure=unseen --where pair=all --panel 3 |
  sed "s/^/(c) alibi: /"
drawn point y.table 64 0.565385
