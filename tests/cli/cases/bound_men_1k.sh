# Men et al. 2024 as Su recomputed it (kexue.fm/archives/10122): 4.3e3 at
# L = 1024, d = 128; two digits published, so the base is rounded to two
# digits; the margin must be >= 0 and the previous grid point fail within L.
"$ROPELAB" bound men --len 1024 --no-meta --no-header |
  awk -F, '{ e = 10 ^ (int(log($4) / log(10)) - 1); printf "%d %d %d\n", int($4 / e + 0.5) * e, ($5 >= 0), ($8 >= 0 && $8 < 1024) }'
