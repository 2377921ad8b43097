exec "$ROPELAB" decay --base nan
