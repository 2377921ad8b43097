# One row with index 16777215 in a learned --dim 4096 table: the reader
# grew its table to 2^24 rows (2.1 GB, 22 s) before failing on the
# missing rows.  A file of 1 row can only hold index 0: refused at that
# row, before any table is allocated (and before any projection is drawn).
awk 'BEGIN { h = "position"; r = "16777215"; for (k = 0; k < 4096; k++) { h = h ",v" k; r = r ",0.5" }; print h; print r }' > far.csv || exit 99
exec "$ROPELAB" params --scheme learned --dim 4096 --params far.csv
