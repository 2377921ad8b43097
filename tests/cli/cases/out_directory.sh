# -o onto a directory: exit 3, one line, nothing written into it or beside it.
mkdir d || exit 99
"$ROPELAB" freqs --dim 4 -o d
rc=$?
ls -A . d
exit $rc
