# bound does not sweep (its --len is its own list, drawn as the curve):
# a list of another option with --plot is refused, nothing written.
"$ROPELAB" bound men --base 1e4,5e5 --plot x.png
rc=$?
ls -A
exit $rc
