# An integer option written as an exact float (64.0, 1e1, 4.) is that
# integer, through the declared-parameter parser (src/core/base/param.c)
# for every integer option: --dim (even), --rot, and decay's --samples
# (a size); before, '4.0' and '1e1' said "expected an even integer".  No
# values: the same bytes as the digits (cmp), and the row counts by hand
# (d = 10: 5 pairs and the header).  A fraction stays refused, saying what
# is expected.
set -e
"$ROPELAB" freqs --dim 4 --base 100 --no-meta > digits.csv
"$ROPELAB" freqs --dim 4.0 --base 100 --no-meta > a.csv && cmp digits.csv a.csv && echo "--dim 4.0: as --dim 4"
"$ROPELAB" freqs --dim 4. --rot 4e0 --base 100 --no-meta > b.csv && cmp digits.csv b.csv && echo "--dim 4. --rot 4e0: as --dim 4"
"$ROPELAB" freqs --dim 1e1 --no-meta | wc -l | tr -d ' '
"$ROPELAB" decay --measure mc --samples 1000 --to 2 --dim 4 --no-meta > s1.csv
"$ROPELAB" decay --measure mc --samples 1e3 --to 2 --dim 4 --no-meta > s2.csv
cmp s1.csv s2.csv && echo "--samples 1e3: as --samples 1000"
"$ROPELAB" freqs --dim 64.5 2>&1 >/dev/null || echo "rc $?"
"$ROPELAB" decay --measure mc --samples 1.5e0 2>&1 >/dev/null || echo "rc $?"
