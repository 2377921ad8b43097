"$ROPELAB" matrix --scheme rope --len 0
