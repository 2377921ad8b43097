# M-RoPE sections must cover the pairs
exec "$ROPELAB" freqs --dim 8 --method mrope --sections 1,1,1
