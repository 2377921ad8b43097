# yes or no
exec "$ROPELAB" freqs --method yarn --factor 8 --train-len 4096 --truncate maybe
