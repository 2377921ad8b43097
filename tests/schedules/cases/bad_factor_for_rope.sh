# plain RoPE takes no factor
exec "$ROPELAB" decay --factor 2
