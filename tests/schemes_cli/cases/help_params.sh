"$ROPELAB" params --help | head -n 1
