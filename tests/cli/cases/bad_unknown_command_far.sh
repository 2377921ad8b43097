exec "$ROPELAB" xyzzy
