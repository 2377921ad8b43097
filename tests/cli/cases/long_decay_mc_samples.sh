# issue 33 item 5: 1e9 Monte Carlo samples at 257 distances of 64 pairs is
# 1e9 x 257 x 64 = 1.6e13 sample-pairs, about 55 h at 12 ns each: refused
# up front (exit 2, one line) with the largest accepted, 3600 s / (257 x 64 x
# 12 ns) - the rows = 18239297 (by hand: 3600 - 257 x 10 us = 3599.997 s).
"$ROPELAB" decay --measure mc --samples 1e9
