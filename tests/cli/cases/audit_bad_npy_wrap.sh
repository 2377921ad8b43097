# A crafted .npy whose shape's product wraps past 2^64 (1853298 *
# 9953468936841 = 2^64 + 2) with 16 bytes of data: it once passed the size
# check and the Fortran-order store wrote past the buffer (SIGSEGV; a heap
# write under ASan).  Now refused by name, exit 2, for audit and check.
python3 -c 'import sys' 2>/dev/null || exit 77
python3 - <<'PY'
d = b"{'descr':'<f8','fortran_order':True,'shape':(1853298,9953468936841)}"
h = d + b" " * ((64 - (10 + len(d) + 1) % 64) % 64) + b"\n"
open("x.npy", "wb").write(b"\x93NUMPY\x01\x00" + len(h).to_bytes(2, "little") + h + b"\0" * 16)
PY
"$ROPELAB" audit x.npy 2>err1
rc1=$?
"$ROPELAB" check --table x.npy 2>err2
rc2=$?
cat err1 err2 | sed 's/at most [0-9]*/at most N/'
echo "$rc1 $rc2"
