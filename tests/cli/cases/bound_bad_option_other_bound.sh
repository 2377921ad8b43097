exec "$ROPELAB" bound liu --tolerance 1e-6
