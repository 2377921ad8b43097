"$ROPELAB" profile --scheme learned --to 600
