exec "$ROPELAB" decay --dim
