# --scale logn multiplies logits by max(1, ln n / ln L): with --train-len 1
# ln L = 0.  That was exit 3, "scheme 'nope' ... at query 0, key 0:
# invalid argument", after the metadata and header on stdout; now a
# usage error before any output (L = 2 runs: ln 4 / ln 2 = 2 is finite).
"$ROPELAB" extrapolate --scheme nope --train-len 2 --eval-len 4 --scale logn --samples 2 \
  --measure entropy > ok.csv
echo "train-len 2: exit $?"
exec "$ROPELAB" extrapolate --scheme nope --train-len 1 --eval-len 4 --scale logn --samples 2 \
  --measure entropy
