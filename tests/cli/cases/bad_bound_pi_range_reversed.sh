# --from quoted as given, not as its double in %.17g (0.10000000000000001)
exec "$ROPELAB" bound pi --from 0.1 --to 0
