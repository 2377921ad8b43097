exec "$ROPELAB" decay --base 1e999
