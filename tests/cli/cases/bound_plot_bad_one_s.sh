# bound pi --plot draws B(s)/d against s: a single s is no curve.
"$ROPELAB" bound pi --from 5 --to 5 --plot x.svg
rc=$?
ls -A
exit $rc
