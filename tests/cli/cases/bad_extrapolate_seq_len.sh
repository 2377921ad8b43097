exec "$ROPELAB" extrapolate --train-len 4 --eval-len 8 --seq-len 8
