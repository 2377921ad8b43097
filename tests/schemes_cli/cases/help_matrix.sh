"$ROPELAB" matrix --help | head -n 1
