"$ROPELAB" matrix --scheme rope --dim abc
