# Chen et al. 2023 Figure 5: B(0)/d = (d/2)(d/2 + 1)/2 / d = 16.25 for d = 128;
# d = 8: 4*5/2/8 = 1.25.  The constant 32 ln 10000 = 294.7308919... in the metadata
# (checked to 4 decimals here, the paper prints 294.73).
"$ROPELAB" bound pi --to 0 --no-meta | cut -d, -f1,2,5,6
"$ROPELAB" bound pi --dim 8 --to 0 --no-meta --no-header | cut -d, -f1,2,5,6
"$ROPELAB" bound pi --to 0 | sed -n "s/^# interp_denominator_32_ln_base=\(294.7308\).*/\1/p"
