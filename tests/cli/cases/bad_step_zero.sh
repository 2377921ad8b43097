exec "$ROPELAB" decay --step 0
