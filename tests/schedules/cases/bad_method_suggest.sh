# an unknown method gets the closest name
exec "$ROPELAB" freqs --method yarm
