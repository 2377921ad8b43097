# progress goes to stderr only: forced with --progress (ends at 100%),
# silent by default when stderr is not a terminal and with --quiet.
"$ROPELAB" decay --to 20 --measure mc --samples 10 --progress -o a.csv 2> forced.txt || exit 1
"$ROPELAB" decay --to 20 --measure mc --samples 10 -o b.csv 2> auto.txt || exit 1
"$ROPELAB" decay --to 20 --measure mc --samples 10 --progress --quiet -o c.csv 2> quiet.txt || exit 1
grep -c '100%' forced.txt
wc -c < auto.txt | tr -d ' '
wc -c < quiet.txt | tr -d ' '
grep -v "^#" a.csv > a.d; grep -v "^#" b.csv > b.d; cmp a.d b.d >/dev/null || echo "progress changed the output"
