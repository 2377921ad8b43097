# variants are an enumerated option too
exec "$ROPELAB" freqs --method yarn --factor 8 --train-len 4096 --variant hff
