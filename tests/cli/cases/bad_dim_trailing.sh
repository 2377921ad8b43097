exec "$ROPELAB" decay --dim 64x
