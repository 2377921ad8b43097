# bound sweeps now (its --dim, --base, ... as lists); a sweep's --plot
# draws the table it writes, so without -o it is refused, nothing written.
"$ROPELAB" bound men --base 1e4,5e5 --plot x.png
rc=$?
ls -A
exit $rc
