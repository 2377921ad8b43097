# more rows than one evaluation chunk (4096): rows, r values, monotone r.
"$ROPELAB" decay --dim 8 --to 10000 --no-meta --no-header |
awk -F, '{ n++; if ($1 != n - 1) bad++ } END { printf "rows=%d bad=%d\n", n, bad }'
