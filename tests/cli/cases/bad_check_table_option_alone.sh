# a --table option without --table: one line naming what it needs
exec "$ROPELAB" check --positions 0:9:1
