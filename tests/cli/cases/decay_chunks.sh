# more rows than one evaluation chunk (16384): rows, r values, monotone r.
"$ROPELAB" decay --dim 8 --to 40000 --no-meta --no-header |
awk -F, '{ n++; if ($1 != n - 1) bad++ } END { printf "rows=%d bad=%d\n", n, bad }'
