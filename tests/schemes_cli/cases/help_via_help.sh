"$ROPELAB" help matrix | head -n 1
