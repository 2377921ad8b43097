exec "$ROPELAB" decay --dim -4
