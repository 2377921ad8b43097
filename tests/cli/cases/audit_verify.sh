# audit --tolerance as CI uses it, on tables written by tests/audit/tables.py:
# the HF float32 table passes against hf-fp32 within 2e-7 (2 float32 ulps
# at 1) and fails against the exact values at 1e-6 (float32 angles drift
# by about m ulp(theta): 2e-6 at m = 58); the wrong tables fail with their
# worst entry named: halves swapped to interleaved, base 10001 for 10000,
# YaRN's range rounded the other way; the Llama 3.1 frequencies pass at
# 1e-15 (the generator's double pow against the exact values).
command -v python3 >/dev/null 2>&1 || exit 77
gen=$(dirname "$0")/../../audit/tables.py
for k in hf-f32 swapped base-off yarn-round; do python3 "$gen" $k $k.npy ${k}_sin.npy || exit 1; done
python3 "$gen" llama3-f64 llama3.csv || exit 1
hf="--dim 64 --layout half --precision hf-fp32"
"$ROPELAB" audit hf-f32.npy --sin hf-f32_sin.npy $hf --tolerance 2e-7 --no-meta | cut -d, -f1; echo "exit $?"
"$ROPELAB" audit hf-f32.npy --sin hf-f32_sin.npy --dim 64 --layout half --tolerance 1e-6 >/dev/null 2>err.txt; echo "exact: exit $?"
grep -c 'hf-f32.npy: off by .* (relative .*) at position [0-9]*, pair [0-9]* (cos\|sin, column [0-9]*): expected .*, found .* (allowed 1e-06; .* times that)$' err.txt
for k in swapped base-off; do
  "$ROPELAB" audit $k.npy --sin ${k}_sin.npy $hf --tolerance 1e-6 >/dev/null 2>err.txt; echo "$k: exit $?"
done
"$ROPELAB" audit yarn-round.npy --sin yarn-round_sin.npy --positions 0:189:3 --method yarn \
  --factor 4 --train-len 4096 --dim 64 --precision hf-fp32 --tolerance 1e-6 >/dev/null 2>&1
echo "yarn-round: exit $?"
"$ROPELAB" audit llama3.csv --method llama3 --factor 8 --dim 64 --base 500000 --train-len 8192 \
  --tolerance 1e-15 --no-meta | cut -d, -f1
