exec "$ROPELAB" decay --dim abc
