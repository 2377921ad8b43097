# A finite T5 bias of 1e308 used to reach compare, whose norms overflowed,
# and was reported as "position 0 is outside 0..511" (exit 2, wrong cause).
# Now |bias| <= LAMBDA is checked at load, LAMBDA = 2^491, derived here
# independently: compare sums the squares of N^2 entries of P and of
# P - P^T, N <= rank_n = 4d + 16 <= 4*65536 + 16 < 2^19, each difference
# <= 2 LAMBDA: 4 LAMBDA^2 N^2 < 2^2 * 2^982 * 2^38 = 2^1022 < DBL_MAX.
# 2^491 = 6.393341031047152e+147 (python3 repr(2.0**491)); the next
# double, 2^491 (1 + 2^-52), is 6.393341031047154e+147 (repr of
# math.nextafter(2.0**491, inf)).  Expected: +-2^491 load and read back as
# the same text (shortest round trip); params, matrix, profile, compare,
# extrapolate exit 0 with no nan or inf; the next double up on line 3 is
# exit 2 naming the file, line, value and range -6.39334e+147..
# ('%.6g' % 2.0**491, which is below 2^491).
{
  echo 'bucket,head,bias'
  for b in 0 2 4 6; do echo "$b,0,6.393341031047152e+147"; done
  for b in 1 3 5 7; do echo "$b,0,-6.393341031047152e+147"; done
} > ok.csv || exit 99
"$ROPELAB" params --scheme t5 --buckets 8 --heads 1 --params ok.csv --what table --no-meta \
  > tab.csv || exit 1
echo "read back: $(grep -c '^[0-9],0,-\{0,1\}6\.393341031047152e+147$' tab.csv) of 8"
o='--scheme t5 --buckets 8 --heads 1 --params ok.csv'
for run in "matrix --len 8" "profile --to 16 --samples 20" "compare --len 8" \
           "extrapolate --train-len 8 --eval-len 32 --samples 4"; do
  "$ROPELAB" $run $o > out.csv 2> err.txt
  rc=$?
  echo "${run%% *}: exit $rc, $(grep -ciE 'nan|inf' out.csv) lines with nan/inf, $(wc -l < err.txt) on stderr"
done
{
  echo 'bucket,head,bias'
  echo '0,0,6.393341031047152e+147'
  echo '1,0,6.393341031047154e+147'
} > big.csv || exit 99
exec "$ROPELAB" compare --scheme t5 --buckets 4 --heads 1 --params big.csv
