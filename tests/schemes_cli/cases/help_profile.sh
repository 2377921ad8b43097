"$ROPELAB" profile --help | head -n 1
