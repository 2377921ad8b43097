# a parameter the method does not use names the method
exec "$ROPELAB" freqs --method yarn --factor 8 --train-len 4096 --window 64
