exec "$ROPELAB" decay --base inf
