exec "$ROPELAB" decay --from ' 1'
