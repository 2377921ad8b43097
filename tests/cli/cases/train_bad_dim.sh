exec "$ROPELAB" train --dim 16
