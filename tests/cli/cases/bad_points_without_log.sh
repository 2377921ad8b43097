exec "$ROPELAB" decay --points 10
