# no command: the usage on stderr, exit 2, stdout empty.
"$ROPELAB"
rc=$?
exit $rc
