# a config that does not exist: exit 3 (unreadable input, as freqs
# --config says it), one line naming the file, no folder left behind
"$ROPELAB" report no-such-model.json
rc=$?
ls -A
exit $rc
