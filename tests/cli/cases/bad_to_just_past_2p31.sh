exec "$ROPELAB" decay --from 2147483000 --to 2147483649
