exec "$ROPELAB" angles --method leaky-rerope
