exec "$ROPELAB" train --threads 0
