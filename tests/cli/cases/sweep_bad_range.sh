exec "$ROPELAB" decay --factor 1:8:x0
