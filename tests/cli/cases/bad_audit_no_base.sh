# audit of inverse frequencies that rise (0.001 .. 1) or stay flat: no
# base > 1 fits, exit 2 with the fitted theta_0 and theta_3 (the file's
# own values, 4 pairs).  The message used to read the fit after freeing
# it: a segfault (exit 139) instead.
printf '0.001\n0.01\n0.1\n1\n' > inc.csv
printf '1\n1\n1\n1\n' > flat.csv
"$ROPELAB" audit flat.csv 2> flat.err
echo "flat: exit $?, $(grep -c "theta_0 = 1, theta_3 = 1) give no base > 1" flat.err) message"
exec "$ROPELAB" audit inc.csv
