# a file written without --shard: refused.
set -e
"$ROPELAB" decay --to 5 --base 500,1e4 > whole.csv
exec "$ROPELAB" merge whole.csv
