# audit identifies tables written by independent code (tests/audit/tables.py,
# Python standard library, float32 emulated with struct; never ropelab's
# output read back).  Expected: the parameters the generator used, stated
# in its docstring: HF float32 d = 64 base 10000 half layout (hf-fp32);
# ggml's running-product float32 d = 64 base 500000 (ggml-f32, one column
# per pair); Llama 3.1 frequencies in double (500000, s = 8, L = 8192);
# YaRN float32 (10000, s = 4, L = 4096, truncated range) at positions
# 0, 3, 6, ...; the float16 cast found as a float16 pipeline.  Printed: the
# best row's method, layout, precision, dim, rot, base, factor, params,
# and whether its error is within 2 float32 ulps at 1 (2^-23: the
# generator's float32 pow may differ from the C library's by an ulp).
command -v python3 >/dev/null 2>&1 || exit 77
gen=$(dirname "$0")/../../audit/tables.py
for k in hf-f32 yarn-f32 f16-cast; do python3 "$gen" $k $k.npy ${k}_sin.npy || exit 1; done
python3 "$gen" ggml-f32 ggml.csv && python3 "$gen" llama3-f64 llama3.csv || exit 1
best() { "$ROPELAB" audit "$@" --no-meta | sed -n 2p |
  awk -F, '{ print $2, $4, $5, $6, $7, $8, $9, $10, ($11 <= 2^-22 ? "close" : "far: " $11) }'; }
best hf-f32.npy --sin hf-f32_sin.npy
best ggml.csv
best llama3.csv
best yarn-f32.npy --sin yarn-f32_sin.npy --positions 0:189:3
best f16-cast.npy --sin f16-cast_sin.npy
