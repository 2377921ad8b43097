exec "$ROPELAB" bound liu --len 4096 --tune-len 2048
