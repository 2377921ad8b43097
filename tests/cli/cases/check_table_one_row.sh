# a cos/sin table of one position: no distance between rows (exit 1, not ok, the reason given)
printf "pos,pair,cos,sin\n0,0,1,0\n0,1,1,0\n" > t.csv
"$ROPELAB" check --table t.csv --only table_relative --tap | sed "s/ # error=.* tolerance=[^ ]* / # /"
"$ROPELAB" check --table t.csv --only table_relative >/dev/null; echo "exit $?"
