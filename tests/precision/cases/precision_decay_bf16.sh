# decay under hf-bf16 against exact, d = 8 (n = 4 pairs), r = 0..16;
# exact is the default (the same bytes).  Each table entry is within
# e = 2^-9 + 1e-5 = 0.0019631 of the exact cos/sin (see
# precision_angles_bf16), the key at 0 has cos 1, sin 0 exactly, so
#   similarity = sum_i cos: |diff| <= n e = 0.0078524;
#   bound = (1/n) sum_j |S_j|, S_j a sum of j phases each within sqrt(2) e:
#   |diff| <= (1/n) sum_j j sqrt(2) e = (n+1)/2 sqrt(2) e = 0.0069407.
# Both must differ somewhere by more than 2^-12 (a float32 table: < 1e-4).
a="--dim 8 --to 16 --measure bound,similarity --no-meta --no-header"
"$ROPELAB" decay $a > def.csv
"$ROPELAB" decay $a --precision exact > exact.csv
"$ROPELAB" decay $a --precision hf-bf16 > bf16.csv
cmp def.csv exact.csv && echo "exact = default"
paste -d, exact.csv bf16.csv | awk -F, '
  function abs(x) { return x < 0 ? -x : x }
  { if (abs($2 - $5) > b) b = abs($2 - $5); if (abs($3 - $6) > s) s = abs($3 - $6) }
  END { printf "bound within=%d differs=%d\n", (b <= 0.0069407), (b > 2^-12)
        printf "similarity within=%d differs=%d\n", (s <= 0.0078524), (s > 2^-12) }'
