exec "$ROPELAB" decay --base 500,1e4 --shard 1/2 --no-meta
