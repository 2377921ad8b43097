exec "$ROPELAB" decay --measure ''
