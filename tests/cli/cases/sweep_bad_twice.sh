exec "$ROPELAB" decay --base 500,1e4 --base 100
