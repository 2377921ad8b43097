# bound pi --plot --method linear --factor 4: the right axis and key use
# the schedule's own interpolation bound, 16 rot / sum theta^2 per B(s)/d,
# not 2 * 32 ln base.  By hand (geometric series, see
# bound_pi_linear_ratio): d = 128, c = 10000, s = 4: sum theta^2 =
# 16^-1 (1 - 1e-8) / (1 - 10000^(-1/32)) = 0.24989..., 2048 / 0.24989 =
# 8195.47 (4 significant digits in the key: 8195).  The key must not name
# 32 ln base.
command -v gnuplot >/dev/null 2>&1 || { echo "no gnuplot" >&2; exit 77; }
"$ROPELAB" bound pi --method linear --factor 4 --to 256 --plot p.svg > /dev/null || exit 1
grep -o 'ratio 16 rot / Σ θ^2 = [0-9.]*' p.svg
grep -o '= 16 B(s) / Σ_j θ_j^2 = [0-9.]*' p.svg
grep -q '32 ln base' p.svg && echo 'names 32 ln base' || echo 'no 32 ln base'
