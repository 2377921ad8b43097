"$ROPELAB" profile --scheme rope --step -1
