# decay --bins K: one row per log-spaced bin of r, K bins per octave.
# (1) d = 4, base 100, r = 1..64 step 1, --bins 1: octaves [1,2), [2,4),
#     ..., [32,64], the last closed, so n = 1, 2, 4, 8, 16, 33 by hand and
#     r = 2^(b+1/2) (awk's 2^(b+0.5)); the bound's mean over each bin from
#     the closed form 1/2 + |cos(0.45 r)| (decay_dim4_closed) summed by awk,
#     1e-12 absolute (the closed form's own tolerance).
# (2) The unbinned table of a log grid (d = 128, yarn, 2000 points from 1
#     to 4096) averaged by awk with its own bin rule, int(log2(r) K + 1e-9)
#     with the last bin closed (K = 8, 3): counts and means equal to the
#     bit (%.17g of the same sums in the same order), and the bound's and
#     similarity's columns both.
# (3) Refusals: a grid reaching r = 0, --bins 0, --bins past 1024.
"$ROPELAB" decay --dim 4 --base 100 --from 1 --to 64 --bins 1 --no-meta |
awk -F, 'function abs(x) { return x < 0 ? -x : x }
  NR == 1 { print; next }
  { c = 2 ^ (NR - 2 + 0.5); lo = 2 ^ (NR - 2); hi = 2 * lo; if (hi == 64) hi = 65
    s = 0; k = 0; for (r = lo; r < hi; r++) { s += 0.5 + abs(cos(0.45 * r)); k++ }
    printf "n=%d expected %d, r %s, mean %s\n", $2, k,
      abs($1 - c) < 1e-12 ? "ok" : "bad " $1, abs($3 - s / k) < 1e-12 ? "ok" : "bad " $3 }'
common="--dim 128 --method yarn --factor 4 --train-len 1024 --measure bound,similarity --log --from 1 --to 4096 --points 2000"
"$ROPELAB" decay $common --no-meta --no-header > raw.csv
for k in 8 3; do
  "$ROPELAB" decay $common --bins $k --no-meta --no-header > bins.csv
  awk -F, -v K=$k '{ b = int(log($1) / log(2) * K + 1e-9); if (b >= 12 * K) b = 12 * K - 1
    if (!(b in c)) o[m++] = b; c[b]++; v[b] += $2; w[b] += $3 }
    END { for (j = 0; j < m; j++) { b = o[j]; printf "%d,%.17g,%.17g\n", c[b], v[b] / c[b], w[b] / c[b] } }' raw.csv > awk.txt
  awk -F, '{ printf "%d,%.17g,%.17g\n", $2, $3, $4 }' bins.csv > ours.txt
  if cmp -s awk.txt ours.txt; then echo "--bins $k: $(wc -l < ours.txt) bins equal awk's"; else echo "--bins $k differs"; diff awk.txt ours.txt | head -4; fi
done
"$ROPELAB" decay --bins 4 > /dev/null 2> e1.txt; echo "from 0: exit $? $(cat e1.txt)"
"$ROPELAB" decay --log --bins 0 > /dev/null 2> e2.txt; echo "bins 0: exit $? $(cat e2.txt)"
"$ROPELAB" decay --log --bins 1025 > /dev/null 2> e3.txt; echo "bins 1025: exit $? $(cat e3.txt)"
