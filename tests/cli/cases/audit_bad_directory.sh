mkdir d && exec "$ROPELAB" audit d
