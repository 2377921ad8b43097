# extrapolate's metadata and help say what the measure computes: identity
# projections (rl_extrap_* sets cfg.identity; the line said "random
# N(0,1/d)" and --identity changed only it, so --identity is refused),
# logits divided by sqrt(d), the drawn trained parameters; and help lists
# --scheme.
"$ROPELAB" extrapolate --train-len 8 --eval-len 16 --scheme nope,t5 --measure unseen |
  grep -E '^# (projections|logits|trained_params)='
"$ROPELAB" extrapolate --train-len 8 --eval-len 16 --scheme nope --measure unseen --identity \
  2>&1 || echo "exit $?"
"$ROPELAB" help extrapolate | grep -c -- '--scheme LIST'
