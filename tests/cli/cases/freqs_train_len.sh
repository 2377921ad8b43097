# rotations = L theta / (2 pi) for L = 10: 10/(2 pi) = 1.59154943091895335...
# and 1/(2 pi) = 0.159154943091895335... (60-digit decimal, rounded once);
# full_turn is 1 only for the first.
exec "$ROPELAB" freqs --dim 4 --base 100 --train-len 10 --no-meta
