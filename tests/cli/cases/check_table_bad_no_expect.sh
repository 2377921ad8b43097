exec "$ROPELAB" check --table t.csv --dim 64 --tap
