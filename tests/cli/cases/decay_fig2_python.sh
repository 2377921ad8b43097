# RoFormer Fig. 2 (d = 128, base 10000, r = 0..256) against an independent
# direct summation in Python (complex partial sums in double, theta_i from
# Python's own pow).  Tolerance 1e-12 relative: ropelab's documented error;
# the Python side's angle rounding is below 256 * 2^-53 ~ 3e-14.
command -v python3 >/dev/null 2>&1 || { echo "no python3" >&2; exit 77; }
"$ROPELAB" decay --no-meta --no-header > got.csv || exit 1
python3 - <<'PY'
import cmath
n = 64
th = [10000.0 ** (-2.0 * i / 128) for i in range(n)]
bad = rows = 0
for line in open("got.csv"):
    r, b = map(float, line.split(","))
    s, acc = 0j, 0.0
    for t in th:
        s += cmath.exp(1j * r * t)
        acc += abs(s)
    ref = acc / n
    rows += 1
    if abs(b - ref) > 1e-12 * ref:
        bad += 1
print("rows=%d bad=%d" % (rows, bad))
PY
