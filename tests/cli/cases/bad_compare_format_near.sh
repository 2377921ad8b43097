# a near miss gets the closest name, as angles --format does (rl_opt_enum)
exec "$ROPELAB" compare --scheme alibi --len 4 --format markdwn
