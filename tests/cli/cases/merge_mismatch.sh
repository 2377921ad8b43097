# shards of two different sweeps (--to differs): refused, naming the
# command line, the first metadata line that differs.
set -e
"$ROPELAB" decay --to 5 --base 500,1e4 --shard 1/2 > s1.csv
"$ROPELAB" decay --to 6 --base 500,1e4 --shard 2/2 > s2.csv
exec "$ROPELAB" merge s1.csv s2.csv -o out.csv
