# profile --plot: one colour per scheme, distinct, fixed by the scheme's
# name (the same whatever the order of --scheme), and a key entry for
# the +-2 se band.  Read from the SVG: each key entry's text and the
# stroke colour of the path after it (its key sample and curve), within
# one gnuplot_plot_ group (a <g> before the text may carry the previous
# curve's stroke).  Eight schemes are drawn one panel each (facets).
command -v gnuplot >/dev/null 2>&1 || { echo "no gnuplot" >&2; exit 77; }
for o in rope,alibi,t5,deberta,xl,sinusoidal,learned,tupe \
         tupe,learned,sinusoidal,xl,deberta,t5,alibi,rope; do
  "$ROPELAB" profile --scheme $o --dim 8 --to 4 --samples 2 --plot-normalize none \
    --plot p.svg > /dev/null || exit 1
  awk '/id="gnuplot_plot_/ { g = 1; t = ""; c = ""; next }
       g && t == "" && /<text>/ { t = $0; sub(/.*<text>/, "", t); sub(/<\/text>.*/, "", t) }
       g && t != "" && c == "" && /<path stroke=.rgb\(/ { c = $0; sub(/.*stroke=.rgb\(/, "", c); sub(/\).*/, "", c); gsub(/ /, "", c) }
       g && t != "" && c != "" { print t " " c; g = 0 }' p.svg | sort > "keys.$o"
  grep -c 'band: mean ± 2 se' p.svg
  grep -v '^band\|^line' "keys.$o" > "schemes.$o"
done
set -- schemes.*
cmp -s "$1" "$2" && echo "same colour per scheme in both orders"
echo "schemes keyed: $(wc -l < "$1")"
echo "distinct colours: $(awk '{ print $NF }' "$1" | sort -u | wc -l)"
