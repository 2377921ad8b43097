# The load limits on |value| of the other tables (derivation in
# src/core/schemes/params.c; LAMBDA = 2^491 bounds a positional logit,
# g = 16 every N(0,1) draw), recomputed here for d = 4 with python3's
# repr, and the next double up (math.nextafter):
#   alibi slope  LAMBDA / (2 * 2^31) = 2^459   = 1.488565707357403e+138
#                                       next     1.4885657073574032e+138
#   learned      sqrt(LAMBDA / (2 g^2 4^1.5)) = sqrt(2^479)
#                                              = 1.2493495408243429e+72
#                                       next     1.249349540824343e+72
#   deberta      sqrt(3) LAMBDA / (2 g^3 4^1.5) = sqrt(3) 2^475
#                                              = 1.6896959680005581e+143
#                                       next     1.6896959680005583e+143
#   tupe         2^510 / sqrt(4) = 2^509       = 1.6759759912428246e+153
#                                       next     1.675975991242825e+153
# Expected: tables at +-limit run every command that takes --params with
# exit 0 and no nan or inf (extrapolate's retrieval included: deberta's
# logits at the limit spread ~1e143 apart, which the retrieval measure
# resolves since it stopped subtracting the replaced key's share,
# src/core/measures/retrieval.c); one entry one double above is exit 2 at
# load naming that value, the file and line 2.
table() { # kind value file: a table with +-value
  case $1 in
  alibi) printf 'head,slope\n0,%s\n1,-%s\n' "$2" "$2";;
  *) first=position; rows=4
     [ $1 = deberta ] && first=bucket rows=2
     [ $1 = tupe ] && rows=5
     echo "$first,v0,v1,v2,v3"
     r=0; while [ $r -lt $rows ]; do
       if [ $((r % 2)) = 0 ]; then echo "$r,$2,-$2,-$2,$2"; else echo "$r,-$2,$2,$2,$2"; fi
       r=$((r + 1)); done;;
  esac > "$3"
}
for kv in alibi:1.488565707357403e+138:1.4885657073574032e+138 \
          learned:1.2493495408243429e+72:1.249349540824343e+72 \
          deberta:1.6896959680005581e+143:1.6896959680005583e+143 \
          tupe:1.6759759912428246e+153:1.675975991242825e+153; do
  k=${kv%%:*}; rest=${kv#*:}; lim=${rest%%:*}; next=${rest#*:}
  table $k $lim ok.csv || exit 99
  o="--scheme $k --dim 4 --heads 2 --params ok.csv"
  # --past only where the scheme has a table length (an option a scheme
  # does not take is refused)
  case $k in learned | tupe) o="$o --past clamp" ;; esac
  [ $k = deberta ] && o="$o --position-buckets 0 --max-relative-positions 1"
  line="$k:"
  for run in "params --what table" "matrix --len 6" "profile --to 8 --samples 10" \
             "compare --len 4" "extrapolate --train-len 4 --eval-len 8 --samples 4 --measure unseen,entropy,shift" \
             "extrapolate --train-len 4 --eval-len 8 --samples 4 --measure retrieval"; do
    "$ROPELAB" $run $o > out.csv 2> err.txt
    line="$line $? $(grep -ciE 'nan|inf' out.csv)"
  done
  table $k $next big.csv || exit 99
  "$ROPELAB" params $o --params big.csv > out.csv 2> err.txt
  rc=$?
  grep -q "'$next' out of range in 'big.csv' line 2: expected -" err.txt && named=named || named=missing
  echo "$line; next double: exit $rc, $named, $(wc -c < out.csv) bytes out"
done
