# matrix of rope under hf-bf16 against exact: W = I and the same content x
# at every position, d = 8, positions 0..7, so cc = |x|^2/sqrt(d) (the
# exact run's column) bounds the logit's scale; exact is the default.
# A bf16 rotation of x (per pair of norm rho): x rounded (u rho, u = 2^-8),
# the table within e = 2^-9 + 1e-5 of cos/sin (sqrt(2) e rho), each product
# and the difference rounded (per component u (2 + u)(1 + sqrt(2) e) rho',
# rho' <= (1 + u) rho): |y - R x| <= eta |x|, eta = [sqrt(2) u (2 + u)
# (1 + sqrt(2) e) + sqrt(2) e](1 + u) + u = 0.017837.  Then
# |<y_i, y_j> - <R_i x, R_j x>| <= eta (2 + eta) |x|^2: |total diff| <=
# 0.03612 cc.  It must differ (by more than 1e-4 cc somewhere).
a="--scheme rope --identity --content same --dim 8 --len 8 --no-meta --no-header"
"$ROPELAB" matrix $a > def.csv
"$ROPELAB" matrix $a --precision exact > exact.csv
"$ROPELAB" matrix $a --precision hf-bf16 > bf16.csv
cmp def.csv exact.csv && echo "exact = default"
paste -d, exact.csv bf16.csv | awk -F, '
  function abs(x) { return x < 0 ? -x : x }
  { e = abs($3 - $12) / $4; if (e > m) m = e; n++ }
  END { printf "entries=%d within=%d differs=%d\n", n, (m <= 0.03612), (m > 1e-4) }'
