# Every line of every help text fits in 80 columns: 'ropelab --help',
# 'ropelab help', 'ropelab help methods' and, for each command that
# 'ropelab --help' lists (so a new command is covered without editing
# this case), 'ropelab CMD --help' and 'ropelab help CMD'.  Columns are
# characters, not bytes: tr drops the UTF-8 continuation bytes (octal
# 200-277) before awk counts, so theta or sigma count as one column (mawk
# counts bytes whatever the locale).  A tab would be counted as one
# column too, so tabs are refused outright.  Each offending line is
# printed with its text and width.
"$ROPELAB" --help | sed -n '/^commands:/,/^$/p' | grep -E '^  [a-z]' | cut -c3- | cut -d' ' -f1 >cmds
[ "$(wc -l <cmds)" -ge 10 ] || { echo "too few commands in 'ropelab --help'"; exit 1; }
check() {
  "$ROPELAB" "$@" >h.txt 2>&1 || { echo "'ropelab $*' failed"; bad=1; return; }
  tr -d '\200-\277' <h.txt | awk -v what="ropelab $*" '
    length($0) > 80 || /\t/ { printf "%s: line %d, %d columns: %s\n", what, NR, length($0), $0; bad = 1 }
    END { exit bad }' || bad=1
}
bad=0
check --help
check help
check help methods
while read -r c; do
  check "$c" --help
  check help "$c"
done <cmds
[ $bad = 0 ] && echo "every help line fits in 80 columns"
exit $bad
