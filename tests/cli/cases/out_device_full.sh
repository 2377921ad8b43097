# -o onto a device that refuses the data (a node like /dev/full): exit 3
# with one line, the node still a device, no temp file beside it.
mknod ./full c 1 7 2>/dev/null || { echo "mknod needs root" >&2; exit 77; }
: > ./full 2>/dev/null || { echo "device nodes unusable here (nodev)" >&2; exit 77; }
"$ROPELAB" decay --to 100000 -o ./full
rc=$?
[ -c ./full ] && echo "still a character device"
ls -A
exit $rc
