# -o FILE.npy: the CSV's numbers as one float64 array that numpy's own
# np.load (Debian python3-numpy) reads back equal, sign bits included;
# format 1.0 with magic, version and header length a multiple of 64 bytes
# (numpy/lib/format.py); more rows than one chunk (2101 > 1024); no temp
# file left.  Skips without numpy.
set -e
py=
for p in python3 /usr/bin/python3; do
  if "$p" -c 'import numpy' 2>/dev/null; then py=$p; break; fi
done
[ -n "$py" ] || exit 77
opts="--dim 12 --rot 8 --method yarn --factor 4 --train-len 64 --from 0 --to 2100 --format pairs"
"$ROPELAB" angles $opts --no-meta -o t.csv
"$ROPELAB" angles $opts -o t.npy
ls
"$py" - <<'PY'
import struct
import numpy as np
a = np.load("t.npy")
rows = [l.strip().split(",") for l in open("t.csv")][1:]
b = np.array([[float(x) for x in r] for r in rows])
print(a.dtype, a.shape, a.flags["C_CONTIGUOUS"])
same = a.shape == b.shape and (a == b).all() and (np.signbit(a) == np.signbit(b)).all()
print("equal to the csv" if same else "differs from the csv")
h = open("t.npy", "rb").read(10)
print(h[:8] == b"\x93NUMPY\x01\x00", (10 + struct.unpack("<H", h[8:10])[0]) % 64)
PY
