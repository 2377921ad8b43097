"$ROPELAB" matrix --scheme learned --len 513 --past error
