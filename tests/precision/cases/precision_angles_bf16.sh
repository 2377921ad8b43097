# angles under hf-bf16 against exact, d = 8, base 10000, positions 0..16.
# exact is the default: the same bytes.  A bf16 entry is the float32
# cos/sin rounded to bfloat16 (8 significant bits): within half a bfloat16
# ulp (2^-9 for |x| in [0.5, 1)) plus the float32 part (angle m theta <= 16
# rad with the product's and inv_freq's roundings, <= 16 * 4 * 2^-24 =
# 3.8e-6; cosf 1 ulp): bound 2^-9 + 1e-5 = 0.0019631.  And it must exceed
# 2^-11: 8 x 17 entries of bfloat16 rounding reach a quarter ulp somewhere
# (a float32 table would not: its error is below 1e-5).
a="--dim 8 --to 16 --no-meta --no-header"
"$ROPELAB" angles $a > def.csv
"$ROPELAB" angles $a --precision exact > exact.csv
"$ROPELAB" angles $a --precision hf-bf16 > bf16.csv
cmp def.csv exact.csv && echo "exact = default"
paste -d, exact.csv bf16.csv | awk -F, '
  function abs(x) { return x < 0 ? -x : x }
  { if (abs($3 - $7) > m) m = abs($3 - $7); if (abs($4 - $8) > m) m = abs($4 - $8); n++ }
  END { printf "rows=%d within=%d differs=%d\n", n, (m <= 0.0019631), (m > 2^-11) }'
