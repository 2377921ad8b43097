exec "$ROPELAB" freqs --meta json
