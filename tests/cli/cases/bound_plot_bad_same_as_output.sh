# bound yarn with -o and --plot naming one file (out.svg, ./out.svg):
# a usage error, nothing created.
"$ROPELAB" bound yarn -o out.svg --plot ./out.svg
rc=$?
ls -A
exit $rc
