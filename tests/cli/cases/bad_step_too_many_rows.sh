exec "$ROPELAB" decay --step 1e-300
