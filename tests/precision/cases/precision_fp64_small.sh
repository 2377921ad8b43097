# fp64 against exact, d = 8, positions 0..1000: the two differ only by
# m theta_lo (|theta_lo| <= ulp(theta)/2 <= 2^-53, so <= 1000 * 2^-53 =
# 1.1e-13 rad) plus the reference's recurrence (<= 1e-13, ropelab.h).
# Every error must stay below 1e-12; a float32 pipeline (6e-8 at best)
# would not.
"$ROPELAB" precision --precision fp64 --dim 8 --to 1000 --by pair --no-meta --no-header |
awk -F, '{ n++; for (i = 5; i <= 8; i++) if ($i > 1e-12) bad++ }
         END { printf "rows=%d bad=%d\n", n, bad }'
