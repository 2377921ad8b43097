exec "$ROPELAB" freqs --dim 3
