exec "$ROPELAB" decay --base 1
