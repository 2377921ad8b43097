"$ROPELAB" matrix --scheme alibj --len 4
