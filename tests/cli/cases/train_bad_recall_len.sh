exec "$ROPELAB" train --task recall --train-len 6
