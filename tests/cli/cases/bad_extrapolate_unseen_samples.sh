# unseen is an exact count: --samples (and --identical, --draw-contents)
# changed only their metadata lines under --measure unseen alone
exec "$ROPELAB" extrapolate --train-len 8 --eval-len 16 --measure unseen --samples 8
