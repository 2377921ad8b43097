# decay --bins K --bin-stat range: each bin's smallest and largest value
# over every r in it (issue 36: the report's decay figure plotted 400 log
# points whose smallest B_r was 4.81 while 9 integer r <= C were negative).
# (1) d = 4, base 100, r = 1..64 step 1, --bins 1: octaves [1,2), [2,4),
#     ..., [32,64] (the last closed): r_first, r_last and n by hand, and
#     the bound's extremes from the closed form 1/2 + |cos(0.45 r)|
#     (decay_dim4_closed) and B_r = cos(r) + cos(0.1 r) scanned by awk,
#     1e-12 absolute (the closed form's own tolerance).
# (2) Llama 3.1's schedule (llama3, base 500000, d 128) to C = 131072:
#     the last bin's smallest B_r is -1.48 (3 digits): numpy, with
#     transformers' llama3 formula in float64 and B_r = sum cos(r theta_i)
#     over every integer r <= 131072, gives 9 negative r, the first at
#     85133, the lowest -1.4802358640588524 at r = 126220; so the first
#     bin holding a negative B_r starts at or before r = 85133.
# (3) --bin-stat without --bins is refused.
"$ROPELAB" decay --dim 4 --base 100 --from 1 --to 64 --bins 1 --bin-stat range \
  --measure bound,similarity --no-meta |
awk -F, 'function abs(x) { return x < 0 ? -x : x }
  NR == 1 { print; next }
  { lo = 2 ^ (NR - 2); hi = 2 * lo; if (hi == 64) hi = 65
    bl = 9; bh = -9; sl = 9; sh = -9; k = 0
    for (r = lo; r < hi; r++) { b = 0.5 + abs(cos(0.45 * r)); s = cos(r) + cos(0.1 * r); k++
      if (b < bl) bl = b; if (b > bh) bh = b; if (s < sl) sl = s; if (s > sh) sh = s }
    printf "r %s..%s n %s: %s\n", $1, $2, $3,
      ($1 == lo && $2 == hi - 1 && $3 == k && abs($4 - bl) < 1e-12 && abs($5 - bh) < 1e-12 &&
       abs($6 - sl) < 1e-12 && abs($7 - sh) < 1e-12) ? "ok" : "bad" }'
m=$(dirname "$0")/../../../experiments/models/llama-3.1-8b.json
"$ROPELAB" decay --config "$m" --measure similarity --from 1 --to 131072 --bins 4 \
  --bin-stat range --no-meta --no-header > b.csv
awk -F, '$4 < 0 { print "first negative bin starts at " $1 ", before 85133: " ($1 <= 85133 ? "yes" : "no"); exit }' b.csv
tail -n 1 b.csv | awk -F, '{ printf "last bin %s..%s: smallest %.3g\n", $1, $2, $4 }'
"$ROPELAB" decay --bin-stat range > /dev/null 2> e.txt; echo "no --bins: exit $? $(cat e.txt)"
