# issue 33 item 5: a precision envelope past the cost model's hour is
# refused before anything is built.  Expected by hand from cost.h's rates:
# 17 pipelines x 10001 positions x 524288 pairs x 0.1 us = 8913.9 s, plus
# 18 builds x 524288 pairs x 1.5 us = 14.2 s: 8928 s = 2.48 h; the most
# positions in an hour floor((3600 - 14.16) / (17 x 524288 x 0.1 us)) =
# 4023, positions 0..4022: the largest --to is 4022 (4023 would be
# 3600.7 s).  Before, it ran (13 s silent building, then ~2.5 h).
exec "$ROPELAB" precision --dim 1048576 --to 1e4
