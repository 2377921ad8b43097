# A figure's title says the method and its parameters, read from the
# metadata (plots/common.gp's schedule_desc).  Since the header row comes
# before the metadata, the reader stopped at the header and every title
# lost this line.
command -v gnuplot >/dev/null 2>&1 || { echo "no gnuplot" >&2; exit 77; }
"$ROPELAB" freqs --dim 8 --method linear --factor 4 --plot f.svg > f.csv || exit 1
grep -o 'linear (variant hf, factor 4)' f.svg
"$ROPELAB" decay --dim 8 --to 20 --method ntk --factor 2 --plot d.svg > d.csv || exit 1
grep -o 'ntk (variant hf, factor 2)' d.svg
