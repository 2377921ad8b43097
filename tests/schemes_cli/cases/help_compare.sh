"$ROPELAB" compare --help | head -n 1
