# check norm_preservation under hf-bf16: ||y| - |x||/|x| for the bf16
# rotation y of x.  A rotation by any angle keeps the norm, so only the
# roundings count: |y - R x| <= eta |x| with eta = 0.017837 (the derivation
# in precision_matrix_bf16; the table within 2^-9 + 6e-8 of the cos/sin of
# its own float32 angle, under e), so the error is <= 0.017837.  Exact:
# ~1e-16, so the bf16 run must exceed 2^-12 and fail the exact tolerance
# (exit 1: the finding that bfloat16 RoPE does not keep norms to double
# precision).  The exact run's line equals the default's.
a="--only norm_preservation --trials 200"
"$ROPELAB" check $a > def.txt
"$ROPELAB" check $a --precision exact > exact.txt
cmp def.txt exact.txt && echo "exact = default: $(cut -c1-4 exact.txt | head -1)"
"$ROPELAB" check $a --precision hf-bf16 > bf16.txt
echo "bf16 exit $?"
awk '/norm_preservation/ { sub(/.*error=/, ""); e = $1 + 0
       printf "%s within=%d differs=%d\n", "bf16", (e <= 0.017837), (e > 2^-12) }' bf16.txt
