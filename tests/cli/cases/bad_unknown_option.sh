exec "$ROPELAB" decay --frobnicate
