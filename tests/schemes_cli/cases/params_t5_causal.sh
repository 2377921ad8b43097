"$ROPELAB" params --scheme t5 --causal --from -128 --to 5 --no-meta |
  awk -F, 'NR == 1 || $1 == 5 || $1 == -5 || $1 == -15 || $1 == -16 || $1 == -32 || $1 == -100 || $1 == -128'
