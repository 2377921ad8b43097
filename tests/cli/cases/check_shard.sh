# check --shard K/N runs the K-th of N contiguous parts of the selected
# checks: 7 checks in 3 shards are parts [floor(7(K-1)/3), floor(7K/3)) =
# 0..1, 2..3, 4..6 (2, 2 and 3 checks), and the parts together are the
# whole run's lines in its order, each check once.
set -e
only=relative_position,norm_preservation,composition,layout_equivalence,t5_buckets,alibi_slopes,llama3_bands
"$ROPELAB" check --only $only --trials 50 > all.txt
: > parts.txt
for k in 1 2 3; do
  "$ROPELAB" check --only $only --trials 50 --shard $k/3 > part$k.txt
  tail -n 1 part$k.txt
  sed '$d' part$k.txt >> parts.txt
done
sed '$d' all.txt | cmp - parts.txt && echo "parts: the whole run's lines"
# TAP numbers each shard's checks from 1
"$ROPELAB" check --only $only --trials 50 --shard 3/3 --tap | cut -d' ' -f1-4
# a shard with no check (more shards than checks) passes vacuously
"$ROPELAB" check --only composition --shard 1/2 --trials 50
# refused: --shard twice (the last one would win silently), and with
# --list, which lists every check
"$ROPELAB" check --shard 1/2 --shard 2/2 2>&1 || echo "rc=$?"
"$ROPELAB" check --shard 1/2 --list 2>&1 || echo "rc=$?"
# the trials a shard's own checks need: mc_independent_mean (at least 100
# trials) is not among the first of 34 shards, so 50 trials are enough
"$ROPELAB" check --trials 50 --shard 1/34 | tail -n 1
