exec "$ROPELAB" check --table none.npy --tap
