# A LongRoPE factor list in a config.json is held to the bound the schedule
# holds every factor to (>= 1e-6, src/core/schedules/longrope.c) when the
# file is read, so the message names the file and the key; before, 1e-7
# passed the reader (> 0) and the build said "expected factors > 0" of a
# pair, naming neither.  head_dim 8: 4 pairs.
cat > phi.json <<'JSON'
{"head_dim": 8, "max_position_embeddings": 131072, "original_max_position_embeddings": 4096,
 "rope_scaling": {"type": "longrope", "short_factor": [1, 1, 1e-7, 1],
                  "long_factor": [1, 1, 1, 1]}}
JSON
exec "$ROPELAB" freqs --config phi.json
