# The bound's axis label says what n of (1/n) sum_j |S_j| is: the number
# of rotary pairs, rot/2 (RoFormer's d/2): 64 for d = 128, 16 for
# --dim 96 --rot 32 (by hand).  Read from the SVG's text.
command -v gnuplot >/dev/null 2>&1 || exit 77
"$ROPELAB" decay --to 16 -o /dev/null --plot a.svg || exit 1
"$ROPELAB" decay --dim 96 --rot 32 --to 16 -o /dev/null --plot b.svg || exit 1
grep -o '(1/n) [^<]*n = rot/2 = [0-9]*' a.svg b.svg | sed 's/.*n = rot/n = rot/'
