# Position interpolation with s = 2 at distance 2k is plain RoPE at k:
# theta_i / 2 is exact in binary and the angle (2k)(theta_i/2) = k theta_i
# is formed exactly, so the bound must agree to the last bit.
"$ROPELAB" decay --method linear --factor 2 --from 0 --to 64 --step 2 --no-meta --no-header | cut -d, -f2 > a
"$ROPELAB" decay --from 0 --to 32 --no-meta --no-header | cut -d, -f2 > b
wc -l < a
cmp a b && echo same
