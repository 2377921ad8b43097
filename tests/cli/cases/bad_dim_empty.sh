exec "$ROPELAB" decay --dim ''
