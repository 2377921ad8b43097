exec "$ROPELAB" help frqs
