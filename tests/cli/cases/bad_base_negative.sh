exec "$ROPELAB" decay --base -10000
