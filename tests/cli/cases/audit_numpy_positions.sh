# audit on numpy dumps at positions that are not 0..P-1 consecutive float32
# (tests/audit/np_tables.py, Debian's python3-numpy; never ropelab's output):
#  - rope-np64: np.cos(np.outer(pos, inv)) in float64, base 10000, d = 64,
#    positions 0..4095, CSV: rope base 10000 (exact values), identified and
#    passing check --table --expect: its entries drift by up to ~4e-13
#    (the float64 angle m theta rounded, cos of a large argument), within
#    the model's a(2|m| ulp(theta_i) + ulp(|m| theta_i)) + 2 eps a, about
#    2.7e-12 at m = 4095, theta_0 = 1;
#  - every7: HF rope float32 (base 10000, d = 64) at positions 0, 7, ...,
#    3577 with a pos column: pairs 0..2 alias at that spacing (theta_i * 7
#    > pi for theta_2 = 10000^(-2/32) = 0.562) and are unwrapped around the
#    frequency predicted from the slower pairs: rope base 10000, hf-fp32;
#  - batch: the same at 300 random distinct positions in 0..65535, in
#    random order: rope base 10000, hf-fp32.
py=
for p in /usr/bin/python3 python3; do
  "$p" -c 'import numpy' 2>/dev/null && { py=$p; break; }
done
[ -n "$py" ] || exit 77
gen=$(dirname "$0")/../../audit/np_tables.py
for k in rope-np64 every7 batch; do "$py" "$gen" $k $k.csv || exit 1; done
best() { "$ROPELAB" audit "$@" > out.csv 2>err.txt || echo "exit $?"
  sed -n 's/^# identified=//p' out.csv
  grep -v '^#' out.csv | sed -n '/^rank,/{n;p;}' | awk -F, '{ print $2, $3, $4, $5, $6, $7, $8, $9, $10 }'; }
best rope-np64.csv
"$ROPELAB" check --table rope-np64.csv --expect --dim 64 >/dev/null; echo "check rope-np64: exit $?"
best every7.csv
best batch.csv
