# Subnormal slopes (1e-310 and 2^-1074 = 5e-324, the smallest) are finite
# numbers and were refused (strtod's ERANGE on underflow).  Expected:
# accepted, and written back as the same doubles (compared by python3's
# correctly rounded float(), not by their text).
command -v python3 >/dev/null || { echo "no python3" >&2; exit 77; }
printf 'head,slope\n0,1e-310\n1,5e-324\n' > sub.csv || exit 99
"$ROPELAB" params --scheme alibi --heads 2 --params sub.csv --no-meta > got.csv || exit 1
python3 -c '
import csv
rows = list(csv.DictReader(open("got.csv")))
want = [1e-310, 5e-324]
for r, w in zip(rows, want):
    print(r["head"], "same double" if float(r["slope"]) == w else "differs: " + r["slope"])
'
