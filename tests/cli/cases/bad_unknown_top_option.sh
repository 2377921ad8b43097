exec "$ROPELAB" --frobnicate decay
