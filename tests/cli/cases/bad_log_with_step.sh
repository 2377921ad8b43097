exec "$ROPELAB" decay --log --step 2
