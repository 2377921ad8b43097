# -o FILE holds exactly what standard output would, and stdout stays empty.
"$ROPELAB" freqs --dim 8 --no-meta > stdout.csv || exit 1
"$ROPELAB" freqs --dim 8 --no-meta -o file.csv > empty.txt || exit 1
cmp stdout.csv file.csv && echo same
wc -c < empty.txt | tr -d ' '
ls
