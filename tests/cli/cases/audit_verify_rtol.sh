# audit --rtol and --ulps beside the absolute --tolerance (numpy's
# assert_allclose and assert_array_max_ulp conventions): Llama 3.1
# frequencies (tests/audit/tables.py llama3-f64: d = 64, base 500000,
# factor 8, L = 8192) with the last pair set to 0.  Its true value,
# 500000^(-62/64) / 8 = 3.767322690173964e-07 (Python), is below 1e-6, so
# --tolerance 1e-6 passes though the entry is 100% off; --rtol 1e-6 (0
# against 1e-6 |expected|) and --ulps 4 fail; --tolerance 1e-6 --rtol 1e-6
# passes (atol + rtol |expected|, as numpy).  The correct frequencies pass
# --ulps 4 (the generator's double pow against the exact values).
command -v python3 >/dev/null 2>&1 || exit 77
gen=$(dirname "$0")/../../audit/tables.py
python3 "$gen" llama3-f64 l3.csv || exit 1
awk 'NR < 32' l3.csv > l3z.csv && echo 0 >> l3z.csv
L="--method llama3 --factor 8 --dim 64 --base 500000 --train-len 8192 --no-meta"
for o in "--tolerance 1e-6" "--rtol 1e-6" "--ulps 4" "--tolerance 1e-6 --rtol 1e-6"; do
  "$ROPELAB" audit l3z.csv $L $o > v.csv 2>err.txt; echo "$o: exit $?"
  sed -n 2p v.csv | cut -d, -f1,6,9,10
done
"$ROPELAB" audit l3z.csv $L --ulps 4 >/dev/null 2>err.txt
grep -c '^ropelab audit: l3z.csv: off by 3.767322690173964e-07 (relative 1) at pair 31: expected 3.767322690173964e-07, found 0 (allowed 4 ulps; ' err.txt
"$ROPELAB" audit l3.csv $L --ulps 4 | cut -d, -f1
