exec "$ROPELAB" decay --dim 0
