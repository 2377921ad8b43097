exec "$ROPELAB" decay --plot png
