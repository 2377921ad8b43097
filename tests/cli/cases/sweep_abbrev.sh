# Abbreviated long options in a sweep mean what getopt_long makes of them
# (the unique option they begin), or are refused when ambiguous; the
# sweep layer used to ignore them silently: --no-m still wrote metadata,
# --no-head slipped past --shard's guard.  --shard twice kept the last.
# Error messages echo values with control characters as C escapes (one
# line, no escape sequence reaching the terminal).
s="decay --to 2 --base 500,1e4"
# shellcheck disable=SC2086
{ "$ROPELAB" $s --no-m > a.csv && "$ROPELAB" $s --no-meta > b.csv; } || exit 1
cmp -s a.csv b.csv && echo "--no-m is --no-meta: $(grep -c '^#' a.csv) metadata lines"
# shellcheck disable=SC2086
"$ROPELAB" $s --no-head --shard 1/2 > /dev/null 2> err; echo "--no-head --shard: status $?"
grep -c "^ropelab decay: --shard needs the '# ' metadata and the header" err
# shellcheck disable=SC2086
"$ROPELAB" $s --sha=1/2 --shard 2/2 > /dev/null 2> err; echo "--sha=1/2 --shard 2/2: status $?"
grep -c "^ropelab decay: --shard given twice ('2/2'): give it once$" err
# shellcheck disable=SC2086
"$ROPELAB" $s --no > /dev/null 2> err; echo "--no: status $?"
grep -c "^ropelab decay: option '--no' is ambiguous: --no-meta, --no-header$" err
"$ROPELAB" decay --base "$(printf '1\n2\033[31m\t')" 2> err; echo "control characters: status $?"
wc -l < err
grep -c "^ropelab decay: invalid --base '1\\\\n2\\\\033\[31m\\\\t': expected a number$" err
