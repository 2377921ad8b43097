# A FIFO with no writer as --params: opening it for reading blocked
# forever.  Expected: refused at once as not a regular file (exit 3), the
# FIFO untouched.  timeout turns a regression into exit 124, not a hang.
mkfifo ./p || exit 99
timeout 20 "$ROPELAB" params --scheme alibi --heads 2 --params ./p
echo "status $?"
[ -p ./p ] && echo "still a FIFO"
