exec "$ROPELAB" audit --dim 64
