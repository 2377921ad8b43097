# plot and audit as declared commands (issue 34): the driver parses them,
# and the messages of their own stay theirs.  Expected, from the commands'
# documented messages before the move (their own getopt loops): audit's
# --plot refusal with its reason, a second FILE refused without the
# driver's "(see ...)", --report with a verification; plot's missing
# TABLE, a second TABLE, the axes and -o IMAGE required, --log's axes.
printf '1\n0.1\n0.01\n0.001\n' > th.csv
printf 'x,y\n1,10\n2,20\n' > p.csv
for args in "th.csv --plot a.png" "th.csv th.csv" "th.csv --report pairs --expect" \
            "th.csv --tolerance -1" "th.csv --report pair"; do
  "$ROPELAB" audit $args 2>&1; echo "rc $?"
done
for args in "" "p.csv p.csv" "p.csv --x x" "p.csv --x x --y y" \
            "p.csv --x x --y y --log x,x -o a.svg" "p.csv --x x --y y --log z -o a.svg" \
            "p.csv --x x --y y --plot a.png -o a.svg"; do
  "$ROPELAB" plot $args 2>&1; echo "rc $?"
done
exit 0
