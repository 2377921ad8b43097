# shard 2 of 3 not given: refused, nothing written.
set -e
for k in 1 3; do "$ROPELAB" decay --to 5 --base 500,1e4,5e5 --shard $k/3 > s$k.csv; done
exec "$ROPELAB" merge s1.csv s3.csv
