# --style: a line type per value of a column, a colour per value of --hue
# (seaborn's relplot(hue=, style=)).  Two methods x two bases: with
# --style base the two curves of base 500000 are dashed, each in its
# method's colour (the colour of a solid curve); with both as --hue, four
# colours and nothing dashed.  A sweep's third swept column is its style.
command -v gnuplot >/dev/null 2>&1 || { echo "no gnuplot" >&2; exit 77; }
set -e
"$ROPELAB" decay --method linear,yarn --base 1e4,5e5 --factor 4 --train-len 4096 --to 50 \
  --dim 16 -o s.csv
# the curves' paths (not the grid's): colour, and "dashed" where they are
curves() {
  grep -o "<path stroke='rgb([^)]*)'[^>]\{0,40\}" "$1" | grep -v gridline |
    sed "s/^<path stroke='\(rgb([^)]*)\)'\( stroke-dasharray\)\{0,1\}.*/\1\2/; s/ stroke-dasharray/ dashed/"
}
"$ROPELAB" plot s.csv --x r --y bound --hue method --style base -o a.svg
echo "--style base: $(curves a.svg | grep -c dashed) of $(curves a.svg | wc -l) dashed"
# every dashed curve's colour is also a solid curve's
curves a.svg | grep dashed | sed 's/ dashed$//' | sort -u > dashed
curves a.svg | grep -v dashed | sort -u > solid
echo "dashed colours not among the solid ones: $(comm -23 dashed solid | wc -l)"
"$ROPELAB" plot s.csv --x r --y bound --hue method,base -o b.svg
echo "--hue method,base: $(curves b.svg | grep -c dashed) dashed, $(curves b.svg | sort -u | wc -l) colours"
"$ROPELAB" decay --method linear,yarn --factor 2,4 --base 1e4,5e5 --train-len 4096 --to 50 \
  --dim 16 -o w.csv --plot w.svg
echo "sweep of method, factor, base: $(curves w.svg | grep -c dashed) of $(curves w.svg | wc -l) dashed"
