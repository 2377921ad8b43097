exec "$ROPELAB" decay --measure mc --seed -1
