# Damaged shards are refused (exit 2, nothing written), each for its own
# reason; they used to be merged with exit 0.  A shard's rows are checked
# against its header's field count and against the row count, length and
# POSIX cksum its '# shard=' line records.  The sweep: 2 x 2 points of 4
# rows (r = 0..3), 3 shards: 1, 1 and 2 points.
set -e
for k in 1 2 3; do
  "$ROPELAB" decay --to 3 --base 500,1e4 --dim 4,8 --shard $k/3 -o s$k.csv
done
set +e
try() { # name, then the shards to merge in place of s1 s2 s3
  n=$1; shift
  "$ROPELAB" merge -o out.csv "$@" 2>err
  # the message without 'ropelab merge: ' and with checksums as C
  echo "$n: exit $? $(sed 's/^ropelab merge: //; s/[0-9]\{6,\}/C/g' err)"
  [ -e out.csv ] && echo "$n: out.csv written"
}
head -c -5 s2.csv > cut.csv                         # cut mid-line
head -n -1 s2.csv > short.csv                       # the last row missing
head -c -1 s2.csv > nonl.csv                        # the final newline missing
sed '$s/5$/6/' s2.csv > edited.csv                  # the last digit 5 -> 6, same length
sed '$s/,[^,]*$//' s2.csv > fields.csv              # the last row's last field dropped
{ cat s3.csv; echo 500,4,0,1.5; } > extra.csv       # a row appended
sed '/^# shard=/s/ rows=.*//' s2.csv > old.csv                # no sums: not verifiable
# what each '# shard=' line records, against wc and the cksum utility
for k in 1 2 3; do
  grep -v '^#' s$k.csv | tail -n +2 > rows
  rec=$(sed -n 's/^# shard=//p' s$k.csv)
  [ "$rec" = "$k/3 rows=$(wc -l < rows) bytes=$(wc -c < rows) cksum=$(cksum < rows | cut -d' ' -f1)" ] &&
    echo "s$k: $k/3 rows=$(wc -l < rows) bytes=$(wc -c < rows), cksum as cksum(1)"
done
try cut s1.csv cut.csv s3.csv
try short s1.csv short.csv s3.csv
try nonl s1.csv nonl.csv s3.csv
try edited s1.csv edited.csv s3.csv
try fields s1.csv fields.csv s3.csv
try extra s1.csv s2.csv extra.csv
try old s1.csv old.csv s3.csv
try whole s1.csv s2.csv s3.csv
