# -o onto a socket (bound, no listener) cannot write, but must not
# replace the socket either: exit 3, the socket still there.
command -v python3 >/dev/null 2>&1 || { echo "no python3" >&2; exit 77; }
python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("s.sock")' || exit 99
"$ROPELAB" freqs --dim 4 -o s.sock
rc=$?
[ -S s.sock ] && echo "still a socket"
ls -A
exit $rc
