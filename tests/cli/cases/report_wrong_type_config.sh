# a config whose rope_theta is a string: exit 2, one line naming the key
printf '{"rope_theta": "1e4", "max_position_embeddings": 4096}\n' >bad.json
"$ROPELAB" report bad.json
rc=$?
ls -A
exit $rc
