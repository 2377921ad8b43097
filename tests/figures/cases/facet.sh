# figures: facet.gp
# A sweep's --plot and `ropelab plot` (plots/facet.gp).  Issue 36, item 7:
# "a sweep's --plot drew bound and dropped the B_r it measured (facet by
# measure)".  decay --dim 8,16 --measure bound,similarity: one row of
# panels per measure (2 panels, 2 curves each: one per dim), and in each
# panel every dim's curve reaches that measure's extremes in the CSV (at
# the same r).  A method sweep with two factors: 2 measures x 2 factors =
# 4 panels, three curves each (rope, the baseline without a factor, in
# both factor panels).  precision --dim 8,16 over its default pipelines:
# a curve per pipeline and dim (the rows of all pipelines were joined
# into one zig-zagging curve per dim), so each of the 4 measures' panels
# holds 2 x (the pipelines in the CSV, counted by awk) curves.  Layout of
# each at both text sizes; axis labels with the command's units (`ropelab
# plot` on a decay table finds them from its '# command=' line).
. "$(dirname "$0")/../figure.sh"
"$ROPELAB" decay --dim 8,16 --measure bound,similarity --to 64 -o d.csv --plot d.svg || exit 1
echo "decay --dim 8,16 --measure bound,similarity:"
layout d.svg
with_table "$ROPELAB" decay --dim 8,16 --measure bound,similarity --to 64 -o d.csv --plot d.png || exit 1
echo "panels: $(grep -c '^# Curve 0 of' d.table), curves:" $(sed -n 's/^# Curve 0 of \([0-9]*\),.*/\1/p' d.table)
for dim in 8 16; do
  drawn extremes d.table d.csv bound --x r --where dim=$dim --panel 1 | sed "s/^/dim $dim: /"
  drawn extremes d.table d.csv similarity --x r --where dim=$dim --panel 2 | sed "s/^/dim $dim: /"
done
"$ROPELAB" decay --method rope,linear,yarn --factor 2,8 --train-len 64 --dim 16 --measure bound,similarity \
  --to 100 -o m.csv --plot m.svg || exit 1
echo "decay --method rope,linear,yarn --factor 2,8 --measure bound,similarity:"
layout m.svg
with_table "$ROPELAB" decay --method rope,linear,yarn --factor 2,8 --train-len 64 --dim 16 \
  --measure bound,similarity --to 100 -o m.csv --plot m.png || exit 1
echo "panels: $(grep -c '^# Curve 0 of' m.table), curves:" $(sed -n 's/^# Curve 0 of \([0-9]*\),.*/\1/p' m.table)
"$ROPELAB" plot d.csv --x r --y similarity --hue dim -o p.svg || exit 1
echo "ropelab plot of the decay table:"
layout p.svg
grep -o '>similarity (no unit)<\|>r (tokens)<' p.svg | sort -u
"$ROPELAB" precision --dim 8,16 --to 1000 --points 8 -o q.csv --plot q.svg || exit 1
echo "precision --dim 8,16:"
layout q.svg
with_table "$ROPELAB" precision --dim 8,16 --to 1000 --points 8 -o q.csv --plot q.png || exit 1
n=$(awk -F, 'NR > 1 && !/^#/ { p[$2] = 1 } END { for (k in p) c++; print 2 * c }' q.csv)
sed -n 's/^# Curve 0 of \([0-9]*\),.*/\1/p' q.table | awk -v n="$n" '{ ok += ($1 == n) } END { print NR " panels, each with 2 x pipelines curves: " (ok == NR ? "yes" : "no") }'
