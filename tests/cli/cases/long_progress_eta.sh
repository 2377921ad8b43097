# issue 33 item 5: a forced progress (--progress) on a small Monte Carlo run
# shows its lines with the time left, on stderr only; not timed.
"$ROPELAB" decay --to 1000 --measure mc --samples 20 --progress -o a.csv 2> err.txt || exit 1
tr '\r' '\n' < err.txt | grep -c 'left' | awk '{ print ($1 >= 1 ? "time left shown" : "no time left") }'
tr '\r' '\n' < err.txt | grep -c '100%'
