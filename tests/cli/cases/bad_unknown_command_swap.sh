exec "$ROPELAB" chekc
