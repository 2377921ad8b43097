# r = 0: every S_j = j, so the bound is (1/64) sum_{j=1..64} j = 65/2.
exec "$ROPELAB" decay --to 0 --no-meta
