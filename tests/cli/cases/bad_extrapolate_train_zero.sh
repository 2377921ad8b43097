exec "$ROPELAB" extrapolate --train-len 0 --eval-len 4
