exec "$ROPELAB" decay --to 3e9
