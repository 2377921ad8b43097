exec "$ROPELAB" angles --to 2147483649
