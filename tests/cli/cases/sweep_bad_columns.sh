exec "$ROPELAB" angles --dim 4,8 --to 1 --format pairs
