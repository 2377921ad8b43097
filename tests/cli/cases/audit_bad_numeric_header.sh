# A first line whose field starts as a number does ('1.0.0', a typo) is
# data, never a header of names: exit 2 naming it.  It was taken as a
# header and the rest audited as 3 pairs with exit 0.
printf '1.0.0\n0.1\n0.01\n0.001\n' > f.csv
exec "$ROPELAB" audit f.csv
