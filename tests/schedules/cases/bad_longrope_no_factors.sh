# LongRoPE needs its factor file
exec "$ROPELAB" freqs --method longrope --factor 4 --train-len 4096
