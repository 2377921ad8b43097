exec "$ROPELAB" train --lr 0
