# vLLM's NTK (NTKScalingRotaryEmbedding, mixed_b unset): base * s, then every
# inverse frequency / s^(2/r): theta_i = base^(-2i/r) s^(-(2i+2)/r), so pair 0
# is s^(-2/r) (hf keeps it at 1) and the last pair is the plain one / s.
# Expected values from Python's pow; tolerance 2 ulp (one rounding each side).
command -v python3 >/dev/null 2>&1 || { echo "no python3" >&2; exit 77; }
"$ROPELAB" freqs --method ntk --factor 2 --dim 64 --variant vllm --no-meta --no-header | cut -d, -f2 > got || exit 1
python3 - <<'PY'
import math
th = [float(x) for x in open("got")]
want = [10000.0 ** (-2 * i / 64) * 2.0 ** (-(2 * i + 2) / 64) for i in range(32)]
bad = sum(abs(a - b) > 2 * math.ulp(b) for a, b in zip(th, want))
print("pairs=%d bad=%d first=%r" % (len(th), bad, th[0]))
PY
