# an unwritable -o fails before computing: exit 3, one line, nothing on
# stdout, no file or temp file left behind.
"$ROPELAB" decay -o nonexistent/dir/x.csv
rc=$?
ls -A nonexistent 2>/dev/null
ls -A
exit $rc
