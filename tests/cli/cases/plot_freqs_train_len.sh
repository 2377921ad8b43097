# freqs --plot: theta (rad/token) and wavelength (tokens) on separate
# axes, each naming its one unit, and the training length given with
# --train-len drawn as a labelled line (text taken from the option value).
command -v gnuplot >/dev/null 2>&1 || { echo "no gnuplot" >&2; exit 77; }
"$ROPELAB" freqs --dim 8 --base 100 --train-len 10 --plot f.svg > f.csv || exit 1
grep -o 'training length L = [0-9]* tokens[^<]*' f.svg
# (the note's second line)
grep -o 'pairs below turn less than once within L' f.svg
grep -o '[^>]*(rad / token[^<]*' f.svg
grep -o 'wavelength[^<]*(tokens[^<]*' f.svg
# no axis label mixes the two units
echo "$(grep -c 'rad / token[^<]*tokens' f.svg)"
