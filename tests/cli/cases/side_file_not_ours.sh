# -o X.npy and --meta json put the metadata in X.npy.json / X.csv.json, a
# file the user did not name (issue 33 item 8): one that ropelab did not
# write is refused, exit 2, before anything is computed, the file and X
# as they were; ropelab's own (a JSON object whose first key is
# "ropelab", as every sidecar begins) is replaced, also through a
# symlink, which stays a link; a FIFO there is refused without opening it
# (it would wait for a reader).  The sweep's and merge's --meta json go
# the same way.
printf '{"mine": 1}\n' > a.npy.json
"$ROPELAB" decay --dim 4 --to 3 -o a.npy 2>&1; echo "rc $?"
cat a.npy.json; [ -e a.npy ] || echo "no a.npy"
echo notes > b.csv.json
"$ROPELAB" freqs --dim 4 --meta json -o b.csv 2>&1; echo "rc $?"
cat b.csv.json; [ -e b.csv ] || echo "no b.csv"
: > e.npy.json
"$ROPELAB" decay --dim 4 --to 3 -o e.npy 2>&1; echo "rc $?"
"$ROPELAB" freqs --dim 4 --base 10,100 --meta json -o b.csv 2>&1; echo "rc $?"
"$ROPELAB" freqs --dim 4 --base 10,100 --shard 1/2 -o s1.csv && "$ROPELAB" freqs --dim 4 \
  --base 10,100 --shard 2/2 -o s2.csv && "$ROPELAB" merge s1.csv s2.csv --meta json -o b.csv 2>&1
echo "rc $?"
mkfifo f.npy.json
timeout 20 "$ROPELAB" decay --dim 4 --to 3 -o f.npy 2>&1; echo "rc $?"
# ropelab's own: replaced, directly and through a link
"$ROPELAB" decay --dim 4 --to 3 -o c.npy && "$ROPELAB" decay --dim 8 --to 3 -o c.npy &&
  grep '"dim"' c.npy.json
mkdir real && "$ROPELAB" freqs --dim 4 --meta json -o real/x.csv && mv real/x.csv.json real/side.json &&
  ln -s real/side.json d.csv.json && "$ROPELAB" freqs --dim 6 --meta json -o d.csv &&
  [ -L d.csv.json ] && grep '"dim"' real/side.json
ls -A
