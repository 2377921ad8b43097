# A device that never ends (a mknod copy of /dev/zero, c 1 5, in the
# scratch folder; skip without root or on a nodev file system) as
# --params: the reader spun forever.  Expected: refused as not a regular
# file, exit 3.
mknod ./zero c 1 5 2>/dev/null || { echo "no mknod (not root?)" >&2; exit 77; }
head -c 1 ./zero >/dev/null 2>&1 || { echo "device nodes not usable here (nodev)" >&2; exit 77; }
timeout 20 "$ROPELAB" params --scheme alibi --heads 2 --params ./zero
echo "status $?"
