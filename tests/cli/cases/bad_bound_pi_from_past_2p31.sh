# a --from past 2^31 is named as --from (it was reported as --to '0')
exec "$ROPELAB" bound pi --from -3e9 --to 0
