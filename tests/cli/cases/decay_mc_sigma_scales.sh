# Every Monte Carlo column but abel_max is sigma^2 times its value at
# sigma = 1 (q, k ~ N(0, sigma^2 I): the means, standard errors and
# 2 sigma^2 B_r are all quadratic in sigma).  At the ends of the range,
# 1e77 (which overflowed to an infinite se, exit 3) and 1e-100 (which gave
# se 0 and abel_max 0), the columns are sigma^2 times those at 1 to
# within 4 ulps (two roundings: sigma^2, then the product), abel_max equal.
command -v python3 >/dev/null || { echo "no python3" >&2; exit 77; }
for s in 1 1e77 1e-100; do
  "$ROPELAB" decay --measure mc --sigma $s --to 3 --samples 10 --no-meta > s$s.csv || exit 1
done
python3 - <<'PY'
import csv, math
one = list(csv.DictReader(open("s1.csv")))
for s in ("1e77", "1e-100"):
    s2 = float(s) ** 2
    for a, b in zip(one, csv.DictReader(open("s%s.csv" % s))):
        ok = True
        for col in a:
            if col in ("r", "abel_max"):
                ok &= float(a[col]) == float(b[col])
            else:
                want, got = float(a[col]) * s2, float(b[col])
                ok &= math.isfinite(got) and abs(got - want) <= 4 * math.ulp(abs(want))
        print(s, a["r"], "scaled" if ok else "differs")
PY
