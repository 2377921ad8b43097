exec "$ROPELAB" check --trials 0
