# Range syntax and the columns in front, against closed forms:
#  - freqs --dim 2 --method linear --factor 1:8:x2: one pair, theta = 1/s
#    exactly (Chen et al. 2023: positions divided by s), for s = 1, 2, 4, 8;
#  - decay --base 100 --dim 2,4: d = 2 has one pair, bound = |e^{ir}| = 1
#    and similarity cos r; d = 4 has theta = 1, 0.1, bound = 1/2 +
#    |cos(0.45 r)| and similarity cos r + cos(0.1 r) (tests/cli/README,
#    decay_dim4_closed), checked by awk to 1e-12 absolute, on each row
#    according to its dim column.
set -e
"$ROPELAB" freqs --dim 2 --method linear --factor 1:8:x2 --no-meta | cut -d, -f1-3
"$ROPELAB" decay --base 100 --dim 2,4 --from 0 --to 10 --step 0.5 --measure bound,similarity --no-meta |
  awk -F, 'NR == 1 { print; next }
    { r = $2; if ($1 == 2) { b = 1; s = cos(r) } else { c = cos(0.45 * r); if (c < 0) c = -c; b = 0.5 + c; s = cos(r) + cos(0.1 * r) }
      e1 = $3 - b; e2 = $4 - s; if (e1 < 0) e1 = -e1; if (e2 < 0) e2 = -e2
      if (e1 > 1e-12 || e2 > 1e-12) { print "off at dim " $1 " r " r; bad = 1 } n[$1]++ }
    END { print "dim 2 rows " n[2] ", dim 4 rows " n[4]; exit bad }'
