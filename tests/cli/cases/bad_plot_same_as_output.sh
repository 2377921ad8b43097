# -o and --plot naming one file (here ./out.svg and out.svg, neither
# existing yet): usage error before any output, nothing created.
"$ROPELAB" decay --to 4 -o out.svg --plot ./out.svg
rc=$?
ls -A
exit $rc
