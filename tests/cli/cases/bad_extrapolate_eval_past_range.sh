exec "$ROPELAB" extrapolate --train-len 512 --eval-len 3e9
