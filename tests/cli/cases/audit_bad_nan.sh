printf "1\n0.1\nnan\n" > f.csv && exec "$ROPELAB" audit f.csv
