# a scaling method without its factor is not silently plain RoPE
exec "$ROPELAB" freqs --method linear
