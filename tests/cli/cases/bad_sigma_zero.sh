exec "$ROPELAB" decay --measure mc --sigma 0
