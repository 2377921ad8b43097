# -o FILE.npy in a folder that does not exist: exit 3, one line naming the
# path, nothing written.
"$ROPELAB" angles --dim 4 --to 3 -o nodir/x.npy
rc=$?
ls -A .
exit $rc
