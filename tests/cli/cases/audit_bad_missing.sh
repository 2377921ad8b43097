exec "$ROPELAB" audit none.npy
