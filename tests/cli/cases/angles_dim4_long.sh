# d = 4, base 100: theta = 100^(-2i/4) = 1, 0.1; attention factor 1.
# Expected cos(m theta_i), sin(m theta_i) for m = 0, 1, 2 written by hand
# from Python: repr(math.cos(m * t)), the shortest decimal that reads back
# (David Gay's algorithm; m * t is exact for these m; math.cos/sin of such
# small arguments are correctly rounded in practice).
exec "$ROPELAB" angles --dim 4 --base 100 --from 0 --to 2 --no-meta
