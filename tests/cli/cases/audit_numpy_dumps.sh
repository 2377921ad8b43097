# audit names the pipeline of tables dumped with numpy as users dump them
# (tests/audit/np_tables.py, Debian's python3-numpy; never ropelab's
# output).  Where a framework is named, the expected answer is the
# framework's formula computed independently in that numpy, op by op in
# float32 as transformers' tensors are, then cast as .to(dtype) casts
# (np_tables.py's docstring):
#  - llama3-bf16: HF Llama 3.1 (d = 128, base 500000, factor 8 exactly,
#    L = 8192) cast to bfloat16: llama3 hf-bf16 (vllm-bf16 gives the very
#    same table: same_table);
#  - linear-f16: HF linear factor 4, float16 .npy: linear hf-f16;
#  - llama3-np32: the same Llama 3.1 in float32 with numpy's own `**`,
#    np.cos and np.sin (not correctly rounded: some inverse frequencies
#    an ulp off): identified as llama3 500000 factor 8, L 8192, hf-fp32,
#    and check --table --expect passes it: its drift is within the
#    tolerance model a(2|m| ulp(theta_i) + ulp(|m| theta_i)) + 2 eps a.
# Printed: identified, then the best row's method, variant, layout,
# precision, dim, rot, base, factor, params and same_table.
py=
for p in /usr/bin/python3 python3; do
  "$p" -c 'import numpy' 2>/dev/null && { py=$p; break; }
done
[ -n "$py" ] || exit 77
gen=$(dirname "$0")/../../audit/np_tables.py
for k in llama3-bf16 linear-f16 llama3-np32; do "$py" "$gen" $k $k.npy ${k}_sin.npy || exit 1; done
best() { "$ROPELAB" audit "$@" > out.csv 2>err.txt || echo "exit $?"
  sed -n 's/^# identified=//p' out.csv
  grep -v '^#' out.csv | sed -n '/^rank,/{n;p;}' | awk -F, '{ print $2, $3, $4, $5, $6, $7, $8, $9, $10 }'; }
best llama3-bf16.npy --sin llama3-bf16_sin.npy
# vLLM computes the same float32 formula, so it must be among the variants
# giving the same table (other pipelines may join it: not asserted)
grep -v '^#' out.csv | sed -n '/^rank,/{n;p;}' | cut -d, -f15 | tr '/' '\n' | sed 's/^ *//; s/ *$//' |
  grep -x 'vllm:vllm-bf16'
best linear-f16.npy --sin linear-f16_sin.npy
best llama3-np32.npy --sin llama3-np32_sin.npy
"$ROPELAB" check --table llama3-np32.npy --sin llama3-np32_sin.npy --expect --method llama3 \
  --base 500000 --factor 8 --train-len 8192 --dim 128 --only table_values >/dev/null
echo "check llama3-np32: exit $?"
