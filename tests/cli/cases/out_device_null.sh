# -o onto a character device writes into it and leaves the node alone
# (renaming a temp file over it, as root, turned /dev/null into a regular
# file).  The node is made here, never the real /dev/null.
mknod ./null c 1 3 2>/dev/null || { echo "mknod needs root" >&2; exit 77; }
: > ./null 2>/dev/null || { echo "device nodes unusable here (nodev)" >&2; exit 77; }
"$ROPELAB" freqs --dim 4 -o ./null
echo "status $?"
[ -c ./null ] && echo "still a character device"
ls -A
