exec "$ROPELAB" bound men --len 4294967296
