# At r = 0 every phase is 1, so S_j = j and RoFormer's bound is (n+1)/2 =
# 32.5 for d = 128; YaRN multiplies the logit by its attention factor
# squared, (0.1 ln 8 + 1)^2 (Peng et al. 2023, sec. 3.4), computed here
# by Python.  Tolerance 4 ulp: the factor and its square are two roundings
# on each side.
command -v python3 >/dev/null 2>&1 || { echo "no python3" >&2; exit 77; }
"$ROPELAB" decay --method yarn --factor 8 --train-len 4096 --to 0 --no-meta --no-header > got || exit 1
python3 - <<'PY'
import math
a = 0.1 * math.log(8) + 1
want = 32.5 * a * a
r, b = map(float, open("got").read().split(","))
print("r=%g ok=%s" % (r, abs(b - want) <= 4 * math.ulp(want)))
PY
