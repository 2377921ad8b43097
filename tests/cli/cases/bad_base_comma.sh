# "1,5" (a comma decimal) is a sweep over 1 and 5 since --base takes a
# list; its first point, base 1, is refused before anything is written.
exec "$ROPELAB" decay --base 1,5
