exec "$ROPELAB" decay --from -3e9 --to 0
