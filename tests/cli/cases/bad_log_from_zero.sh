exec "$ROPELAB" decay --log --from 0 --to 100
