# bound pi with partial rotation (--dim 128 --rot 64): B(s) runs over the
# 32 rotated pairs and b_over_d divides it by rot, not by the dim column:
# at s = 0 every S_k = k, B(0) = 1 + ... + 32 = 528 and 528 / 64 = 8.25
# (528 / 128 would be 4.125).  The figure's title must name that d, 64.
command -v gnuplot >/dev/null 2>&1 || { echo "no gnuplot" >&2; exit 77; }
"$ROPELAB" bound pi --dim 128 --rot 64 --to 8 --plot p.svg > p.csv || exit 1
awk -F, '!/^#/ && $5 == "0" { print "dim column " $1 ", B(0)/d " $6 }' p.csv
grep -o 'Fig. 5: B(s)/d, d = [^&<]*' p.svg
