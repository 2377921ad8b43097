# bound pi takes its values of s from --from, --to, --step; a --len was
# silently ignored (exit 0, s = 0..4095 whatever it said).  Now exit 2,
# nothing written.
"$ROPELAB" bound pi --len 5 -o out.csv
rc=$?
ls -A
exit $rc
