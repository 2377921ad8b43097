exec "$ROPELAB" decay --log --from 8 --to 8 --points 4
