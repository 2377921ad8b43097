exec "$ROPELAB" precision --to 2147483648 --distance 1
