"$ROPELAB" params --scheme t5 --from -500 --to 500 --no-meta |
  awk -F, 'BEGIN { n = split("-500 -128 -127 -65 -63 -32 -31 -20 -16 -15 -9 -8 -7 -1 0 1 7 8 9 15 16 20 31 32 63 65 127 128 500", a, " "); for (i = 1; i <= n; i++) w[a[i]] = 1 } NR == 1 || ($1 in w)'
