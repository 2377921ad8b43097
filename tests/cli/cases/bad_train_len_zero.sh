exec "$ROPELAB" freqs --train-len 0
