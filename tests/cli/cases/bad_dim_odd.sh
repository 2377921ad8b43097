exec "$ROPELAB" decay --dim 127
