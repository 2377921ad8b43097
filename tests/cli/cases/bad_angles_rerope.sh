exec "$ROPELAB" angles --method rerope
