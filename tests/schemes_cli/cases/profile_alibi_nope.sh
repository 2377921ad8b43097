# positional = (cc + bias) - cc is bias to within one rounding of |cc| + |bias|
# (< 1e-15 here), whatever the drawn projections: values within 1e-12 of
# zero print as 0 and the rest to 12 digits, so the exact -m r and se 0
# are compared, not the rounding noise of one seed's W_q, W_k.
"$ROPELAB" profile --scheme alibi,nope --dim 64 --to 4 --samples 2 --no-meta |
  awk -F, -v OFS=, 'NR > 1 { for (i = 1; i <= NF; i++) { v = $i + 0; $i = (v > -1e-12 && v < 1e-12) ? 0 : sprintf("%.12g", v) } } { print }'
