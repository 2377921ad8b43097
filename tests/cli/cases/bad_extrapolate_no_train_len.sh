exec "$ROPELAB" extrapolate --eval-len 4
