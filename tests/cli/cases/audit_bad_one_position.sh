printf "1,1\n" > c.csv && printf "0,0\n" > s.csv && exec "$ROPELAB" audit c.csv --sin s.csv
