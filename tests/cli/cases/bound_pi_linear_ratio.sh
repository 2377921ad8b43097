# bound pi --method linear --factor 4: the ratio's interpolation bound is
# max|h| sum_j theta_j^2 / 8 from linear's own frequencies, not the paper's
# d max|h| / (32 ln c) (that step assumes RoPE's theta).  Closed form
# (Python decimal, 40 digits): theta_j = c^(-2j/d) / s, j = 0..d/2-1, so
# sum theta^2 = (1/s^2) (1 - c^-2) / (1 - c^(-4/d)), a geometric series;
# d = 128, c = 10000, s = 4: 0.2498942515812390...  B(0) = 1 + ... + 64
# = 2080, so ratio(0) = 2 B / (sum / 8) = 16 * 2080 / sum = 133176.33...,
# and ratio / b_over_d = 16 d / sum = 8195.46... at every s (checked at
# s = 1000).  Tolerance: theta is exact to double-double, the sum and
# ratio are formed in long double and rounded once, printed shortest
# round-trip: 4 DBL_EPSILON relative (8 for the quotient at s = 1000,
# which adds the division's rounding here).
command -v python3 >/dev/null 2>&1 || exit 77
"$ROPELAB" bound pi --method linear --factor 4 --from 0 --to 1000 --step 1000 > p.csv || exit 1
python3 - p.csv <<'PY'
import sys
from decimal import Decimal as D, getcontext
getcontext().prec = 40
d, c, s = 128, D(10000), D(4)
r = c ** (D(-4) / d)
S = (1 - c ** -2) / (1 - r) / (s * s)
B0 = D(64 * 65 // 2)
want = {"sum": S, "ratio0": 16 * B0 / S, "per": 16 * d / S}
meta, rows = {}, {}
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if line.startswith("# ") and "=" in line:
        k, v = line[2:].split("=", 1); meta[k] = v
    elif not line.startswith("#") and not line.startswith("dim"):
        f = line.split(","); rows[float(f[4])] = (float(f[5]), float(f[6]))
eps = 2.0 ** -52
def check(name, got, w, tol):
    e = abs(D(got) - w) / w
    print(name, "ok" if e <= D(tol * eps) else "off by %.3g eps (got %r, want %s)" % (float(e) / eps, got, w))
check("interp_sum_theta_sq", float(meta["interp_sum_theta_sq"]), want["sum"], 4)
check("ratio_per_b_over_d", float(meta["ratio_per_b_over_d"]), want["per"], 4)
check("ratio at s=0", rows[0.0][1], want["ratio0"], 4)
check("ratio/b_over_d at s=1000", rows[1000.0][1] / rows[1000.0][0], want["per"], 8)
print("paper's constant absent:", "interp_denominator_32_ln_base" not in meta)
print("interp_bound names the sum:", "sum_j theta_j^2 / 8" in meta.get("interp_bound", ""))
PY
