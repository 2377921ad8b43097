# d = 2: one pair, S_1 = e^{i r}, so the bound is |e^{i r}| = 1 at every r.
# Tolerance 4 DBL_EPSILON: |(cos, sin)| of a correctly rounded pair.
"$ROPELAB" decay --dim 2 --no-meta --no-header |
awk -F, '{ n++; d = $2 - 1; if (d < 0) d = -d; if (d > 8.9e-16) bad++ }
         END { printf "rows=%d bad=%d\n", n, bad }'
