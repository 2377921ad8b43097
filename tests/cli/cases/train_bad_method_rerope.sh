exec "$ROPELAB" train --method rerope --steps 1
