exec "$ROPELAB" decy
