# -o onto a FIFO writes into it: its reader gets the whole CSV (the same
# as on stdout) and the FIFO stays (a rename over it left the reader
# waiting on a pipe no one could open any more).
mkfifo ./p || exit 99
"$ROPELAB" freqs --dim 8 --no-meta > want.csv || exit 1
cat ./p > got.csv &
reader=$!
"$ROPELAB" freqs --dim 8 --no-meta -o ./p
echo "status $?"
i=0
while [ $i -lt 50 ] && kill -0 $reader 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
kill -0 $reader 2>/dev/null && { echo "reader got no end of file"; kill $reader; }
cmp want.csv got.csv && echo "reader got the CSV"
[ -p ./p ] && echo "still a FIFO"
ls -A
