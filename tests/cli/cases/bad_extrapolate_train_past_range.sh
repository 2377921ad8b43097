exec "$ROPELAB" extrapolate --train-len 2147483649 --eval-len 4
