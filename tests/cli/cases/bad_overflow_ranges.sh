# Values whose results overflow a double are refused (exit 2, the value
# and the accepted range), or computed without the overflow; they gave
# inf with exit 0, or "internal error" exit 3.
#  - --attention-factor: 2^-64 .. 2^64 (its square times sigma^2 <= 1e200
#    times 2^31 stays finite); 1e200 printed logit_multiplier=inf.  At
#    2^64 the multiplier is 2^128 = 3.402823669209385e+38 (Python
#    repr(2.0**128)).
#  - bound liu --tune-len: critical_base = b^(ln(T'/2pi)/ln(T/2pi)) is
#    finite up to T' = 2pi DBL_MAX^(ln(T/2pi)/ln b) = 4.66928e+217 for
#    T = 4096, b = 10000 (Python math, '%.6g').
#  - decay --log --from 1e-300 --to 1e9: to/from overflows but the grid
#    does not: 3 points 1e-300, 10^-145.5, 1e9 (Python decimal:
#    3.1622776601683793320e-146, within 4 ulps), bound 1 at d = 2.
y="--dim 4 --method yarn --factor 4 --train-len 64"
for c in freqs angles precision; do
  # shellcheck disable=SC2086
  "$ROPELAB" $c $y --attention-factor 1e200 > /dev/null 2> err.txt
  echo "$c: status $? $(grep -c "invalid --attention-factor '1e200': expected a number from 2^-64 (5.421010862427522e-20) to 2^64 (1.8446744073709552e+19)" err.txt)"
done
# shellcheck disable=SC2086
"$ROPELAB" freqs $y --attention-factor 18446744073709551616 | grep '^# logit_multiplier='
"$ROPELAB" bound liu --tune-len 1e300 > /dev/null 2> err.txt
echo "liu: status $? $(grep -c "invalid --tune-len '1e300': expected at most 4.66928e+217 at --len 4096" err.txt)"
"$ROPELAB" bound liu --tune-len 4.6e217 | awk -F, '!/^#/ && $1 != "dim" { print "liu 4.6e217: critical_base " ($8 ~ /^[0-9.]+e\+30[0-8]$/ ? "finite" : $8) }'
"$ROPELAB" decay --dim 2 --log --from 1e-300 --to 1e9 --points 3 | awk -F, '!/^#/ && $1 != "r" {
  n++; w = n == 1 ? 1e-300 : n == 2 ? 3.1622776601683793320e-146 : 1e9
  d = ($1 - w) / w; if (d < 0) d = -d
  print "decay row " n ": r " (d <= 4 * 2.220446049250313e-16 ? "ok" : $1) ", bound " $2 }'
