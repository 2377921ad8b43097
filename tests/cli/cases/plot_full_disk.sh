# --plot on a full file system: gnuplot exits 0 when its writes fail, and
# the old image was replaced by a truncated one with exit 0.  The full
# disk is simulated by RLIMIT_FSIZE (ulimit -f 8: 4 KiB per file, SIGXFSZ
# ignored so a write past it fails with EFBIG, the way ENOSPC fails it),
# on ropelab and the gnuplot it starts alike; the PNG is ~35 KB.
# Expected: exit 3 naming the image, the old image byte for byte, no
# temp file left.  Needs gnuplot.
command -v gnuplot > /dev/null || { echo "no gnuplot" >&2; exit 77; }
"$ROPELAB" decay --to 50 --plot fig.png > /dev/null || exit 1
cp fig.png before.png
[ "$(wc -c < fig.png)" -gt 4096 ] || { echo "image too small for the test" >&2; exit 1; }
(trap '' XFSZ; ulimit -f 8 && exec "$ROPELAB" decay --to 50 --base 500 --plot fig.png > /dev/null)
echo "status $?"
cmp -s fig.png before.png && echo "old image kept"
ls -A | grep tmp || echo "no temp file"
