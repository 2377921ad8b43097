# --shard K/N and merge give exactly the bytes of the run without --shard
# (cmp): shards to stdout merged to stdout; shards with -o merged with the
# -o of the unsharded run (in another folder, so the command lines match);
# shards given in any order; more shards than points (empty shards).
# Shard 7/10 of 6 points is point floor(6*6/10) = 3 alone: 21 metadata
# lines (20 of the sweep, see sweep_meta, and shard=), the header and
# r = 0..50, 73 lines.
set -e
A="decay --to 50 --base 500,1e4,5e5 --dim 16,32 --measure bound,similarity"
"$ROPELAB" $A > whole.csv
for k in 1 2 3; do "$ROPELAB" $A --shard $k/3 > s$k.csv; done
"$ROPELAB" merge s2.csv s3.csv s1.csv > merged.csv
cmp whole.csv merged.csv && echo "stdout: same bytes"
mkdir a b
(cd a && "$ROPELAB" $A -o all.csv)
(cd b && for k in 1 2 3 4 5 6 7 8 9 10; do "$ROPELAB" $A -o part$k.csv --shard $k/10 --jobs 2; done &&
  "$ROPELAB" merge part*.csv -o all.csv)
cmp a/all.csv b/all.csv && echo "-o: same bytes"
grep -c '^# shard=' s1.csv
grep -c . b/part7.csv
