"$ROPELAB" matrix --scheme rope --dim 16 --len 20 --term positional --format grid --no-meta --threads 2 | tr "," "\n" > "${TMPDIR:-/tmp}/g.$$"
"$ROPELAB" matrix --scheme rope --dim 16 --len 20 --term positional --shortest --no-meta --no-header | cut -d, -f3 > "${TMPDIR:-/tmp}/l.$$"
awk 'NR == FNR { a[FNR] = $1; n = FNR; next } { if (a[FNR] + 0 != $1 + 0) bad++ } END { print FNR == n && FNR == 400 && !bad ? "same" : "differ" }' "${TMPDIR:-/tmp}/g.$$" "${TMPDIR:-/tmp}/l.$$"
rm -f "${TMPDIR:-/tmp}/g.$$" "${TMPDIR:-/tmp}/l.$$"
