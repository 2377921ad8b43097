"$ROPELAB" compare --len 0
