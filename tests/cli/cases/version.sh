exec "$ROPELAB" --version
