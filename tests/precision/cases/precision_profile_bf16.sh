# profile of rope under hf-bf16 against exact, W = I, d = 8, r = 0..8,
# query at 8, 100 samples; exact is the default (the same bytes).
# rope_same (the same content x at both positions): positional = total -
# cc with cc = |x|^2/sqrt(d).  By precision_matrix_bf16's bound the total
# moves by <= 0.03612 |x|^2/sqrt(d), and cc (x rounded to bfloat16) by
# <= (2u + u^2) |x|^2/sqrt(d) = 0.0078278 |x|^2/sqrt(d): per sample
# 0.04395 |x|^2/sqrt(8).  |x|^2 is chi-squared with 8 degrees of freedom
# (mean 8, sd 4): the mean over 100 samples is below 8 + 6 * 0.4 = 10.4
# (six standard errors), so the mean moves by <= 0.04395 * 10.4 / sqrt(8)
# = 0.1616.  It must differ by more than 1e-4 somewhere.
a="--scheme rope --identity --dim 8 --to 8 --samples 100 --no-meta --no-header"
"$ROPELAB" profile $a > def.csv
"$ROPELAB" profile $a --precision exact > exact.csv
"$ROPELAB" profile $a --precision hf-bf16 > bf16.csv
cmp def.csv exact.csv && echo "exact = default"
paste -d, exact.csv bf16.csv | awk -F, '
  function abs(x) { return x < 0 ? -x : x }
  { e = abs($2 - $6); if (e > m) m = e; n++ }
  END { printf "rows=%d within=%d differs=%d\n", n, (m <= 0.1616), (m > 1e-4) }'
