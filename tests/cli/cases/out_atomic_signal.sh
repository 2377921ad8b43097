# -o is atomic: while running only FILE.tmpXXXXXX exists, the old FILE is
# intact; SIGTERM removes the temp file and leaves the old FILE alone.
echo old > big.csv
"$ROPELAB" decay --to 1000000 --measure mc --samples 2000 -o big.csv 2>err.txt &
pid=$!
i=0
while [ $i -lt 50 ] && ! ls big.csv.tmp* >/dev/null 2>&1; do sleep 0.1; i=$((i + 1)); done
ls big.csv.tmp* >/dev/null 2>&1 && echo "temp file while running"
sleep 0.3
kill -TERM $pid
wait $pid
echo "status $?"
cat big.csv
ls -A
