# A headerless inverse-frequency CSV that starts with a UTF-8 byte order
# mark (EF BB BF, as spreadsheets save): the mark is not part of the
# first value.  It was taken as a header, losing theta_0, and audit read
# 3 pairs (dim 6).  theta_i = 10000^(-2i/8) for d = 8: 1, 0.1, 0.01,
# 0.001, each the double nearest its decimal (so a base-10000 rope at
# d = 8 is exact).
printf '\357\273\2771\n0.1\n0.01\n0.001\n' > f.csv
"$ROPELAB" audit f.csv > out.csv || exit 1
grep -E '^# (pairs|identified)=' out.csv
grep -v '^#' out.csv | sed -n '/^rank,/{n;p;}' | cut -d, -f2,6-8
