# A FIFO given to merge blocked forever (opened for reading with no
# writer).  Expected: refused at once as not a regular file (exit 3),
# nothing written; timeout turns a regression into exit 124, not a hang.
set -e
"$ROPELAB" decay --to 3 --base 500,1e4 --shard 1/2 -o s1.csv
mkfifo ./s2.csv || exit 99
set +e
timeout 20 "$ROPELAB" merge -o out.csv s1.csv s2.csv
echo "status $?"
[ -p ./s2.csv ] && echo "still a FIFO"
[ -e out.csv ] || echo "nothing written"
