# bound liu --plot draws critical_dim against --len: one length (the
# default 4096) is no curve, so a usage error before any output.
"$ROPELAB" bound liu --plot x.png
rc=$?
ls -A
exit $rc
