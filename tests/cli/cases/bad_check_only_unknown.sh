exec "$ROPELAB" check --only relative_positon
