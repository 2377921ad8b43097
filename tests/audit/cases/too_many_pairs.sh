# Identification of 65537 inverse frequencies (rope base 10000 written by
# awk) is refused up front, exit 2 with the reason (issue 33 item 5: it
# ran silent, 32,768 pairs > 300 s): above RL_AUDIT_MAX_PAIRS = 65536.
# 65536 itself is allowed (not run here: about 100 s of CPU).
awk 'BEGIN { n = 65537; for (i = 0; i < n; i++) printf "%.17g\n", exp(-i / n * log(10000)) }' > inv.csv
"$ROPELAB" audit inv.csv
