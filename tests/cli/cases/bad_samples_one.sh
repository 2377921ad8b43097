exec "$ROPELAB" decay --measure mc --samples 1
