# sweeps append: --no-header --no-meta pieces concatenate into the same
# table as one run (same r column, values within 1e-12 relative).
"$ROPELAB" decay --to 9 --no-meta > whole.csv || exit 1
{ "$ROPELAB" decay --to 4 --no-meta
  "$ROPELAB" decay --from 5 --to 9 --no-meta --no-header; } > parts.csv || exit 1
wc -l < parts.csv | tr -d ' '
grep -c '^#' parts.csv
grep -c '^r,' parts.csv
paste -d, whole.csv parts.csv | awk -F, 'NR == 1 { next }
  { d = $2 - $4; if (d < 0) d = -d; if ($1 != $3 || d > 1e-12 * $2) bad++ }
  END { print "bad=" bad + 0 }'
