# A sweep's memory does not grow ~85 KB per point: every point's metadata
# used to be kept as small heap blocks between the commands' large
# transient ones (decay, d = 128), so the heap could not reuse its holes
# (10,000 points: 859 MB of RSS, 100,000: out of memory).  3000 points of
# decay under a 120 MB address-space limit (ulimit -v): 'out of memory'
# before; now about 5 MB.  Rows: 3000 points x r = 0, 1, 2, plus the
# header.  Skipped under AddressSanitizer (its shadow memory needs
# terabytes of address space).
if command -v ldd > /dev/null 2>&1 && ldd "$ROPELAB" 2> /dev/null | grep -q libasan; then
  echo "AddressSanitizer build" >&2; exit 77
fi
(ulimit -v 120000 && exec "$ROPELAB" decay --to 2 --threads 1 --base 2:3001:1 --jobs 1 > out.csv)
echo "status $?"
grep -vc '^#' out.csv
tail -1 out.csv | cut -d, -f1,2
