# YaRN (Peng et al. 2023, eq. 22 / Hugging Face get_mscale): attention
# factor 0.1 ln s + 1 for s = 8: 1.2079441541679836 (repr of Python's
# 0.1 * math.log(8) + 1).  At position 0 every angle is 0: cos = the
# attention factor itself, sin = 0, in every pair.
exec "$ROPELAB" angles --method yarn --factor 8 --train-len 4096 --dim 8 --from 0 --to 0 --no-meta
