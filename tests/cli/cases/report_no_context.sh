# a config with no length at all (no max_position_embeddings, no rope
# scaling): exit 2 after the first command has run in the temporary
# folder, which is removed: nothing is left behind
printf '{"rope_theta": 10000, "hidden_size": 512, "num_attention_heads": 8}\n' >noctx.json
"$ROPELAB" report noctx.json
rc=$?
ls -A
exit $rc
