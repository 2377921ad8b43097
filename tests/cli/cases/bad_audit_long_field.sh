# A 2,000-byte field in a user's table (the audit's reader, io/array.c):
# the value is cut and the message stays whole, as bad_csv_long_field.
awk 'BEGIN { printf "pos,pair,cos,sin\n0,0,1,0\n1,0,"; for (i = 0; i < 2000; i++) printf "y"; printf ",0\n" }' > table.csv
exec "$ROPELAB" audit table.csv --dim 2
