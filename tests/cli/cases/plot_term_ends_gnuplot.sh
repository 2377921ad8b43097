# SIGTERM during the plot step ends gnuplot too (it ran on as an orphan)
# and leaves no temp file, neither beside the image nor in $TMPDIR.
# gnuplot is a stand-in on PATH that records its pid and sleeps.
mkdir bin tmp || exit 99
cat > bin/gnuplot <<'GP'
#!/bin/sh
echo $$ > gp.pid.new && mv gp.pid.new gp.pid
exec sleep 30
GP
chmod +x bin/gnuplot
# gone: no process, or a zombie no one reaps (a container's pid 1)
gone() { ! kill -0 "$1" 2>/dev/null || grep -q '^[0-9]* ([^)]*) Z' "/proc/$1/stat" 2>/dev/null; }
TMPDIR=$PWD/tmp PATH=$PWD/bin:$PATH "$ROPELAB" decay --to 10 --plot big.png > out.csv &
pid=$!
i=0
while [ $i -lt 100 ] && [ ! -s gp.pid ]; do sleep 0.1; i=$((i + 1)); done
[ -s gp.pid ] || { echo "gnuplot did not start"; kill $pid; exit 1; }
gp=$(cat gp.pid)
kill -TERM $pid
wait $pid
echo "status $?"
i=0
while [ $i -lt 20 ] && ! gone "$gp"; do sleep 0.1; i=$((i + 1)); done
if gone "$gp"; then echo "gnuplot ended"; else echo "gnuplot still running"; kill "$gp"; fi
rm -r bin gp.pid
ls -A . tmp
