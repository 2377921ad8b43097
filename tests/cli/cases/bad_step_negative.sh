exec "$ROPELAB" decay --step -0.5
