exec "$ROPELAB" decay --from -infinity
