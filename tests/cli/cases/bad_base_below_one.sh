exec "$ROPELAB" freqs --base 0.5
