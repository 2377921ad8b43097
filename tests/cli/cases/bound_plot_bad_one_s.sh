# bound pi --plot draws B(s)/d against s: a single s is no curve.  The
# message quotes the grid as given (0.1, not 0.10000000000000001).
"$ROPELAB" bound pi --from 0.1 --to 0.2 --step 0.3 --plot x.svg
rc=$?
ls -A
exit $rc
