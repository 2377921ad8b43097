printf "1,0.5\n0.5,0.25\n" > c.csv && printf "0,1\n" > s.csv && exec "$ROPELAB" audit c.csv --sin s.csv
