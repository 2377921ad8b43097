# a usage error never touches the -o file: the old content survives.
echo old > keep.csv
"$ROPELAB" decay --dim 3 -o keep.csv
rc=$?
cat keep.csv
ls -A
exit $rc
