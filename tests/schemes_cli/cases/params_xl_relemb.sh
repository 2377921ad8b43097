# Transformer-XL R_r at d = 4: theta = 10000^(-2i/4) = 1, 0.01; sines then
# cosines; values are the correctly rounded sin(1), sin(0.01), cos(1),
# cos(0.01) (Python math, which agrees with mpmath to the last bit here).
"$ROPELAB" params --scheme xl --what relemb --dim 4 --from 0 --to 1 --no-meta
