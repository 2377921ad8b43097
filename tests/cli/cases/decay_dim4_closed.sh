# d = 4, base 100: theta = 1, 0.1, so
#   bound(r) = (|S_1| + |S_2|)/2 = (1 + |1 + e^{-0.9 i r}|)/2 = 1/2 + |cos(0.45 r)|
#   similarity(r) = cos(r) + cos(0.1 r)
# evaluated by awk's libm.  Tolerance 1e-12 absolute: the awk side rounds
# 0.45 r and 0.1 r (error <= 256 * 2^-52 ~ 6e-14 in the angle), ropelab's
# documented relative error is below 1e-12.  Linear (fast dyadic path),
# non-dyadic and log grids.
check() {
  "$ROPELAB" decay --dim 4 --base 100 --measure bound,similarity --no-meta --no-header "$@" |
  awk -F, -v name="$*" '
    function abs(x) { return x < 0 ? -x : x }
    { n++; r = $1
      b = 0.5 + abs(cos(0.45 * r)); s = cos(r) + cos(0.1 * r)
      if (abs($2 - b) > 1e-12 || abs($3 - s) > 1e-12) { bad++; if (bad < 4) print "r=" r ": " $2 " vs " b ", " $3 " vs " s } }
    END { printf "%s: rows=%d bad=%d\n", name, n, bad }'
}
check --to 256 --step 0.0625
check --from -10 --to 10 --step 0.1
check --log --from 0.001 --to 200 --points 50
