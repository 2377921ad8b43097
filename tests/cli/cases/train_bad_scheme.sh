exec "$ROPELAB" train --scheme binary
