# a factor list of the wrong length: 3 rows for d = 8 (4 pairs)
printf "pair,short,long\n0,1,1\n1,1,2\n2,1,4\n" > f.csv
exec "$ROPELAB" freqs --dim 8 --method longrope --factor 4 --train-len 4096 --factors f.csv
