# hf-bf16, d = 128, positions 0..100: a table entry is the float32 cos/sin
# rounded to bfloat16 (8 significant bits), so |entry - exact| <= half a
# bfloat16 ulp (2^-9 for |x| in [0.5, 1), less below) plus the float32
# part (angle m theta: <= 100 * 2^-24 rad, cosf within 1 ulp): bound
# 2^-9 + 1e-5 = 0.0019631.  And it must exceed 2^-10: bfloat16 rounding of
# 64 x 101 entries reaches near half an ulp somewhere (the test can fail
# if the table were float32).
"$ROPELAB" precision --precision hf-bf16 --to 100 --by pair --no-meta --no-header |
awk -F, '$2 == "all" { printf "cos_ok=%d sin_ok=%d\n", ($5 <= 0.0019631 && $5 > 2^-10), ($6 <= 0.0019631 && $6 > 2^-10) }'
