# gnuplot gets its data as /dev/fd/N of a file with no name in $TMPDIR
# ($TMPDIR stays empty while it runs), and can read it more than once,
# also from the shells its scripts start: each read is the whole CSV,
# the same bytes as -o writes.  gnuplot is a stand-in on PATH:
# gnuplot -c SCRIPT DATA IMAGE TERMINAL.
mkdir bin tmp || exit 99
cat > bin/gnuplot <<'GP'
#!/bin/sh
case $3 in /dev/fd/[0-9]*) echo "a descriptor" > kind.txt ;; *) echo "$3" > kind.txt ;; esac
ls -A "$TMPDIR" > tmpdir.txt
cat "$3" > read1.csv
sh -c 'cat "$1"' sh "$3" > read2.csv
echo image > "$4"
GP
chmod +x bin/gnuplot
TMPDIR=$PWD/tmp PATH=$PWD/bin:$PATH "$ROPELAB" decay --to 64 -o d.csv --plot d.png
echo "status $?"
cat kind.txt
echo "TMPDIR while running:"; cat tmpdir.txt
cmp d.csv read1.csv && cmp d.csv read2.csv && echo "both reads are the CSV"
cat d.png
echo "TMPDIR after:"; ls -A tmp
