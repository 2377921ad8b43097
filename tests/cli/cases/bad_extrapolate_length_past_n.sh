exec "$ROPELAB" extrapolate --train-len 4 --eval-len 8 --lengths 4,16
