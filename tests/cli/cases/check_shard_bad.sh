# --shard K/N needs 1 <= K <= N: 0/2 is refused before any check runs
exec "$ROPELAB" check --shard 0/2
