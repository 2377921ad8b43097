# profile's grid says past 2^31 in the words of decay and angles (grid_opts.c), naming the option and its value
exec "$ROPELAB" profile --to 3e9
