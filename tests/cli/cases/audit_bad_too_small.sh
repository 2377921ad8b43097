printf "1\n" > f.csv && exec "$ROPELAB" audit f.csv
