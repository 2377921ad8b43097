exec "$ROPELAB" train --scheme alibi --method yarn --factor 2
