# extrapolate and audit sweep like every other command (issue 15
# section 2).  No values: a sweep's rows equal the single runs' rows with
# the swept values in front (cmp), for extrapolate over --dim (a schedule
# option) and --head (a scheme option) and over --samples, and for a
# sharded extrapolate sweep merged.  audit --tolerance 1e-20,1e-3,1e-9:
# float32(0.1) - 0.1 = 1.4901161138336505e-09 (Python:
# float(numpy.float32(0.1)) - 0.1), so the verdicts are fail, pass, fail,
# every row is written, and the exit status is 1 (a failed check) with
# one line per failed point and a count.
set -e
m="--measure unseen,entropy --train-len 8 --eval-len 16 --lengths 8,16"
y="$m --no-meta"
x="$y --samples 4"
"$ROPELAB" extrapolate --scheme rope $x --dim 8,16 > sweep.csv
for d in 8 16; do
  "$ROPELAB" extrapolate --scheme rope $x --dim $d --no-header | sed "s/^/$d,/"
done > singles.csv
tail -n +2 sweep.csv | cmp - singles.csv && echo "extrapolate --dim 8,16: the single runs' rows"
head -1 sweep.csv
"$ROPELAB" extrapolate --scheme alibi $y --heads 4 --head 0,3 --samples 4,6 > sweep.csv
for h in 0 3; do for s in 4 6; do
  "$ROPELAB" extrapolate --scheme alibi $y --heads 4 --head $h --samples $s --no-header |
    sed "s/^/$h,$s,/"
done; done > singles.csv
tail -n +2 sweep.csv | cmp - singles.csv && echo "extrapolate --head 0,3 --samples 4,6: the single runs' rows"
head -1 sweep.csv
for k in 1 2 3; do
  "$ROPELAB" extrapolate --scheme rope $m --samples 4 --dim 8,16,32 --shard $k/3 -o s$k.csv
done
"$ROPELAB" merge s1.csv s2.csv s3.csv | grep -v '^#' > merged.csv
"$ROPELAB" extrapolate --scheme rope $x --dim 8,16,32 | cmp - merged.csv &&
  echo "extrapolate --shard 1/3..3/3 merged: the unsharded table"
set +e
"$ROPELAB" freqs --dim 8 --no-meta | cut -d, -f2 > theta.csv
"$ROPELAB" audit theta.csv --dim 8 --tolerance 1e-20,1e-3,1e-9 --no-meta > out.csv 2> err
echo "exit $?"
cut -d, -f1,2,4 out.csv
grep -c 'off by 1.4901161138336505e-09' err
grep -v 'off by' err
