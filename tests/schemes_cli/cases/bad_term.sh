"$ROPELAB" matrix --scheme rope --term totl
