exec "$ROPELAB" decay --seed 3
