# A LongRoPE factor below 1e-6 in --factors: the message states the bound
# checked (factors >= 1e-6), not "> 0"; d = 8, 4 pairs, the third short
# factor 1e-7.
printf 'pair,short,long\n0,1,1\n1,1,1\n2,1e-7,1\n3,1,1\n' > f.csv
exec "$ROPELAB" freqs --method longrope --factor 4 --train-len 4096 --dim 8 --factors f.csv
