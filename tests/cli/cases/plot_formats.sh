# --plot draws PNG, SVG and PDF (format from the extension, checked by the
# files' magic), the CSV is unchanged by plotting, no temp files remain.
command -v gnuplot >/dev/null 2>&1 || { echo "no gnuplot" >&2; exit 77; }
"$ROPELAB" decay --to 32 --no-meta > plain.csv || exit 1
"$ROPELAB" decay --to 32 --no-meta -o d.csv --plot d.png || exit 1
"$ROPELAB" decay --to 32 --no-meta --measure bound,similarity --plot d.svg > s.csv || exit 1
"$ROPELAB" freqs --plot f.pdf > /dev/null || exit 1
cmp plain.csv d.csv && echo "csv same"
head -c 8 d.png | od -An -c | tr -s ' ' | sed 's/^ //'
grep -c '<svg' d.svg
head -c 5 f.pdf; echo
grep -c '^r,bound,similarity$' s.csv
ls -A
