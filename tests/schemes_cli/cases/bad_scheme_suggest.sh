"$ROPELAB" profile --scheme ropee
