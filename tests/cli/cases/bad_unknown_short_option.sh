exec "$ROPELAB" freqs -x
