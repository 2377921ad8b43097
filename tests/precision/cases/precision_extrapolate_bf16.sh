# extrapolate (rope, retrieval) under hf-bf16 against exact: every key
# equal to the query x (--identical), n = 2 keys at positions 0, 1, the
# query at 1, d = 8, 100 samples; exact is the default (the same bytes).
# Each logit moves by <= 0.03612 |x|^2/sqrt(d) (precision_matrix_bf16's
# bound with q = k = x); a softmax probability p_j moves by <= 2 p_j
# (1 - p_j) max|dlogit| <= max|dlogit| / 2, so per sample by <= 0.01806
# |x|^2/sqrt(8).  |x|^2 is chi-squared with 8 degrees of freedom: the mean
# over 100 samples is below 10.4 (six standard errors), so the mean
# probability moves by <= 0.01806 * 10.4 / sqrt(8) = 0.0664.  It must
# differ by more than 1e-5.
a="--train-len 2 --eval-len 2 --lengths 2 --distances 0,1 --dim 8 --scheme rope --identical
   --samples 100 --measure retrieval --no-meta --no-header"
"$ROPELAB" extrapolate $a > def.csv
"$ROPELAB" extrapolate $a --precision exact > exact.csv
"$ROPELAB" extrapolate $a --precision hf-bf16 > bf16.csv
cmp def.csv exact.csv && echo "exact = default"
paste -d, exact.csv bf16.csv | awk -F, '
  function abs(x) { return x < 0 ? -x : x }
  { e = abs($11 - $23); if (e > m) m = e; n++ }
  END { printf "rows=%d within=%d differs=%d\n", n, (m <= 0.0664), (m > 1e-5) }'
