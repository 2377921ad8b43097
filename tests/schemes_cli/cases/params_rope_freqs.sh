"$ROPELAB" params --scheme rope --dim 8 --no-meta
