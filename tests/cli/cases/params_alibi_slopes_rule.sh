# The metadata names the rule that computed the slopes: for 12 heads
# get_slopes' closest-power-of-two rule (8 heads at 2^(-8h/8), then
# 2^(-8h/16) for h = 1, 3, 5, 7: 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5, as
# params_alibi_h12 checks), not 2^(-8h/H) with H = 12, which it said.
for h in 8 12; do
  "$ROPELAB" params --scheme alibi --heads $h | grep '^# slopes='
done
