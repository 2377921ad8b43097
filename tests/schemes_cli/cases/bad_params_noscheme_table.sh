"$ROPELAB" params --scheme rope --what table
