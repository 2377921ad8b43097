exec "$ROPELAB" decay --base 1,5
