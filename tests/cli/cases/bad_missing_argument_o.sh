exec "$ROPELAB" freqs -o
