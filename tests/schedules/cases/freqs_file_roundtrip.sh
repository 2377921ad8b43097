# `freqs` output read back by --method file gives the same frequencies and
# attention factor: the shortest round-trip numbers lose nothing.
"$ROPELAB" freqs --method yarn --factor 8 --train-len 4096 -o y.csv || exit 1
"$ROPELAB" freqs --method file --freqs-file y.csv -o f.csv || exit 1
grep -v '^#' y.csv | cut -d, -f1-3 > a
grep -v '^#' f.csv | cut -d, -f1-3 > b
cmp a b && echo "same theta"
[ "$(grep '^# attention_factor=' y.csv)" = "$(grep '^# attention_factor=' f.csv)" ] && echo "same attention factor"
