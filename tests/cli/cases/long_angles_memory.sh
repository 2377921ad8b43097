# issue 33 item 5: angles at d = 2^20 under a 1 GB address space.  An
# exact table took ROWS_FAST = 1024 positions a chunk whatever a row
# weighed (2^19 pairs: 43 GB a worker) and ended exit 3 "out of memory";
# the chunk is now bounded in bytes.  Rows: 2 positions x 2^19 pairs =
# 1048576 plus the header (by hand); position 0 is cos 1, sin 0 in every
# pair; position 1, pair 0 (theta_0 = 1): Python's repr(math.cos(1)),
# repr(math.sin(1)).  Skipped under AddressSanitizer (its shadow memory
# needs terabytes of address space).
if command -v ldd > /dev/null 2>&1 && ldd "$ROPELAB" 2> /dev/null | grep -q libasan; then
  echo "AddressSanitizer build" >&2; exit 77
fi
(ulimit -v 1000000 && exec "$ROPELAB" angles --dim 1048576 --to 1 --threads 2 -o a.csv)
echo "status $?"
grep -vc '^#' a.csv
awk -F, '$1 == "0" && ($3 != "1" || $4 != "0")' a.csv | wc -l
grep '^1,0,' a.csv
