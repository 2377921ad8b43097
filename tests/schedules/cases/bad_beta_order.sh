# YaRN needs beta-fast > beta-slow
exec "$ROPELAB" freqs --method yarn --factor 8 --train-len 4096 --beta-fast 1 --beta-slow 32
