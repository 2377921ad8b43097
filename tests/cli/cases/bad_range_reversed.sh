exec "$ROPELAB" decay --from 10 --to 5
