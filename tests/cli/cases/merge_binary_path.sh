# Shards made by the same ropelab under two paths (ropelab on PATH and
# build/src/ropelab) are one sweep: merge takes them, and the result's rows
# are those of the run without --shard.  A real difference is still named,
# the binary's path left out of the message.
set -e
ln -s "$ROPELAB" alt
"$ROPELAB" freqs --dim 8,16 --no-meta > whole.csv
"$ROPELAB" freqs --dim 8,16 --shard 1/2 > s1.csv
./alt freqs --dim 8,16 --shard 2/2 > s2.csv
"$ROPELAB" merge s1.csv s2.csv | grep -v '^#' | cmp - whole.csv && echo "merged: the rows of the whole run"
./alt freqs --dim 8,32 --shard 2/2 > s3.csv
set +e
"$ROPELAB" merge s1.csv s3.csv 2>&1; echo "rc $?"
