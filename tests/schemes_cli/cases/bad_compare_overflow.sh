# a learned table of finite 1e308 values: (x + p).(x + p) overflows, so
# the logits are not finite: one line, exit 2, no table (issue 7 sec. 4)
f=${TMPDIR:-/tmp}/bad_overflow.$$.csv
{ printf 'position,v0,v1,v2,v3\n'; i=0; while [ $i -lt 8 ]; do printf '%d,1e308,1e308,1e308,1e308\n' $i; i=$((i + 1)); done; } > "$f"
"$ROPELAB" compare --scheme learned --dim 4 --max-len 8 --len 4 --params "$f"; rc=$?; rm -f "$f"; exit $rc
