# a name far from every method lists them all
exec "$ROPELAB" decay --method foo
