# a factor below 1 would shrink the context
exec "$ROPELAB" freqs --method linear --factor 0.5
