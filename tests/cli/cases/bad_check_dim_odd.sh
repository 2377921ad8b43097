exec "$ROPELAB" check --dim 5
