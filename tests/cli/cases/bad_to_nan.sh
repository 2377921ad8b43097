exec "$ROPELAB" decay --to NaN
