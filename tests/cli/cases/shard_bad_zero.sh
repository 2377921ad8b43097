exec "$ROPELAB" decay --shard 0/3
