exec "$ROPELAB" profile --scheme rope --threads 1,2
