# -o /dev/fd/N (what a shell's >(cmd) passes) writes to our descriptor N
# as a redirection would: the same bytes as stdout, and with 3>> the
# descriptor's append mode is kept (a second run adds, not overwrites).
"$ROPELAB" freqs --dim 4 --no-meta > want.csv || exit 1
"$ROPELAB" freqs --dim 4 --no-meta -o /dev/fd/3 3>out.csv
echo "status $?"
cmp want.csv out.csv && echo "same as stdout"
"$ROPELAB" freqs --dim 4 --no-meta --no-header -o /dev/fd/3 3>>app.csv || exit 1
"$ROPELAB" freqs --dim 4 --no-meta --no-header -o /dev/fd/3 3>>app.csv || exit 1
wc -l < app.csv | tr -d ' '
ls -A
