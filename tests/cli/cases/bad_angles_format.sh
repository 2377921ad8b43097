exec "$ROPELAB" angles --format hff
