# bound pi --method rope (the default) keeps Chen et al.'s constant:
# ratio = 2 (B(s)/d) 32 ln c (arXiv:2306.15595, Theorem 2.1 and eq. 8),
# not the sum of theta^2 other methods use (which for rope would be
# 16 d / sum = 512.21..., not 64 ln c = 589.46...).  Closed form (Python
# decimal, 40 digits): d = 128, c = 10000, B(0)/d = 16.25, so
# ratio(0) = 1040 ln 10000 = 9578.7539868552...; ratio / b_over_d =
# 64 ln 10000 at s = 1000.  Tolerance 4 DBL_EPSILON relative (long double,
# one rounding, shortest round-trip), 8 for the quotient.  The metadata
# still carries the constant 32 ln c and no interp_bound line.
command -v python3 >/dev/null 2>&1 || exit 77
"$ROPELAB" bound pi --from 0 --to 1000 --step 1000 > p.csv || exit 1
python3 - p.csv <<'PY'
import sys
from decimal import Decimal as D, getcontext
getcontext().prec = 40
L = D(10000).ln()
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
check("32 ln c", float(meta["interp_denominator_32_ln_base"]), 32 * L, 4)
check("ratio at s=0", rows[0.0][1], 1040 * L, 4)
check("ratio/b_over_d at s=1000", rows[1000.0][1] / rows[1000.0][0], 64 * L, 8)
print("interp_bound absent:", "interp_bound" not in meta and "interp_sum_theta_sq" not in meta)
PY
