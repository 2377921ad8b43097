exec "$ROPELAB" check --dim 64,128
