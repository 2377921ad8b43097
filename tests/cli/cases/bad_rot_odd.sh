exec "$ROPELAB" freqs --rot 7
