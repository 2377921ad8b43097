exec "$ROPELAB" decay 128
