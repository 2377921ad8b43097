exec "$ROPELAB" decay --measure bound,simlarity
