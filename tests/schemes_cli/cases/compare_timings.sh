# pair_ns is a timing: only with --timings (issue 7 sec. 3); the default
# header has no such column and names the far-position probe 'unbounded'
"$ROPELAB" compare --scheme rope --dim 8 --len 4 --no-meta | head -n 1
"$ROPELAB" compare --scheme rope --dim 8 --len 4 --no-meta --timings | head -n 1 | tr ',' '\n' | grep -c '^pair_ns$'
