# -o '' is bad input: refused as every table command refuses it (exit 2,
# one line), before any shard is read (these do not exist).  merge's own
# option loop took it, read the shards and then failed to write '' (exit 3).
exec "$ROPELAB" merge -o '' nosuch1.csv nosuch2.csv
