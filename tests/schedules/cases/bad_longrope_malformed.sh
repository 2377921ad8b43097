# a malformed value names file and line
printf "pair,short,long\n0,1,1\n1,x,2\n" > f.csv
exec "$ROPELAB" freqs --dim 4 --method longrope --factor 4 --train-len 4096 --factors f.csv
