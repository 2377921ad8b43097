exec "$ROPELAB" decay --dim 64 --rot 128
