exec "$ROPELAB" decay --base ten
