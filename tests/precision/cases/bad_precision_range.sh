exec "$ROPELAB" precision --from 10 --to 5
