exec "$ROPELAB" angles --step 0
