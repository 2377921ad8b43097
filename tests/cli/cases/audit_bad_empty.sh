: > e.csv && exec "$ROPELAB" audit e.csv
