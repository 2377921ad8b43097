exec "$ROPELAB" decay --log=yes
