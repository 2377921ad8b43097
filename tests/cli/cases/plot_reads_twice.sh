# the real gnuplot on /dev/fd/N data: decay.gp reads the file four times
# (header and metadata through awk and sed, then once per curve); both
# curves and the title from the metadata must be in the SVG.
command -v gnuplot >/dev/null 2>&1 || { echo "no gnuplot" >&2; exit 77; }
"$ROPELAB" decay --to 64 --measure bound,similarity --plot d.svg > d.csv || exit 1
grep -o 'gnuplot_plot_[0-9]' d.svg | sort -u
grep -c "Long-term decay of RoPE: relative upper bound of the logit and B_r, d = 128, base = 10000" d.svg
