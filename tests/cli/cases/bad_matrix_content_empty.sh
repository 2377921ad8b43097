# an empty value is named as such, with every name (rl_opt_enum)
exec "$ROPELAB" matrix --scheme alibi --len 3 --content ''
