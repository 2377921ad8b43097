# the same shard twice (a copy): refused.
set -e
for k in 1 2; do "$ROPELAB" decay --to 5 --base 500,1e4 --shard $k/2 > s$k.csv; done
cp s1.csv copy.csv
exec "$ROPELAB" merge s1.csv s2.csv copy.csv
