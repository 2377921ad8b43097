# L = 8, n = 16 (136 causal query-key pairs), counted by hand:
# alibi (distance >= 8): 8 + 7 + ... + 1 = 36 pairs, 36/136 = 9/34;
# sinusoidal (query position >= 8): 9 + 10 + ... + 16 = 100, 25/34;
# nope: none.  Printed as Python's repr(9/34), repr(25/34).
"$ROPELAB" extrapolate --train-len 8 --eval-len 16 --lengths 16 --dim 8 \
  --scheme nope,alibi,sinusoidal --measure unseen --no-meta | awk -F, '$10 == "all" { print $1, $11 }'
