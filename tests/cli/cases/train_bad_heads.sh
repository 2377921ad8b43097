exec "$ROPELAB" train --d-model 30 --heads 4
