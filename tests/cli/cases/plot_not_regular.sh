# --plot is renamed into place, so it must name a regular file or a new
# one: a FIFO called p.svg is refused before any output and stays.
mkfifo p.svg || exit 99
"$ROPELAB" decay --to 4 --plot p.svg
rc=$?
[ -p p.svg ] && echo "still a FIFO"
exit $rc
