"$ROPELAB" compare --format html
