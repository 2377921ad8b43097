# TUPE-R buckets (Ke et al. 2021): [CLS] row 32/2 = 16, column 32; else
# T5 bidirectional of key - query: 0 -> 0, +1 -> 16 + 1 = 17, -1 -> 1.
"$ROPELAB" params --scheme tupe --what buckets --to 2 --no-meta
