exec "$ROPELAB" matrix --scheme rope --dim 4,8 --len 2 --format grid
