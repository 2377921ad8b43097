exec "$ROPELAB" train --scheme xl
