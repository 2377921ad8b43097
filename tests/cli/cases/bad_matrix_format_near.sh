# a near miss gets the closest name, as angles --format does (rl_opt_enum)
exec "$ROPELAB" matrix --scheme alibi --len 3 --format lon
