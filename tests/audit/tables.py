#!/usr/bin/env python3
"""tables.py KIND OUT [OUT2]: RoPE tables written the way other code writes
them, independently of ropelab (Python standard library only), for the
audit tests.  float32 arithmetic is emulated by rounding every operation
to float32 with struct (round to nearest even), as PyTorch and ggml do on
a CPU; cos and sin of a float32 argument are the double results rounded
once to float32 (glibc's cosf/sinf are correctly rounded in practice).

Kinds (positions 0..P-1, P = 64 unless said):
  hf-f32      Hugging Face LlamaRotaryEmbedding, float32: inv_freq =
              1 / (base ** (arange(0, d, 2).float() / d)); freqs = t
              inv_freq; emb = cat(freqs, freqs); cos, sin: .npy P x d (cos
              in OUT, sin in OUT2); d = 64, base 10000
  ggml-f32    ggml_rope (ggml-cpu rope_f32): theta_scale = powf(base,
              -2/n_dims); theta = p, then theta *= theta_scale per pair;
              written as CSV pos,pair,cos,sin; d = 64, base 500000
  llama3-f64  Llama 3.1 scaling (HF _compute_llama3_parameters) in double:
              d = 64, base 500000, factor 8, L = 8192, low 1, high 4;
              inverse frequencies, one per line
  yarn-f32    HF _compute_yarn_parameters, float32 inv_freq, d = 64,
              base 10000, factor 4, L = 4096, beta 32/1, truncate;
              cos/sin P x 32 pairs as .npy with attention factor
              0.1 ln 4 + 1; positions 0, 3, 6, ... (--positions)
  swapped     hf-f32's table with the halves put back interleaved
              (columns 2i, 2i+1 = pair i): a wrong layout for HF
  base-off    hf-f32 with base 10001
  yarn-round  yarn-f32 with the correction range rounded the other way
              (ceil(low), floor(high))
  f16-cast    hf-f32 cast to float16 (stored as float32 .npy)
  ntk-f64     NTK-aware, Hugging Face's form (_compute_dynamic_ntk at a
              fixed length, the ntk of ropelab's schedules): base' = base
              s^(d/(d-2)), inverse frequencies in double; d = 64, base
              10000, s = 4 (a rope of base 41829.366..., the same numbers)
  ntk-vllm    vLLM NTKScalingRotaryEmbedding: inverse frequencies at base
              s, divided by s^(2/d), in double; d = 64, base 10000, s = 4
  longrope    LongRoPE / Phi-3 form 1 / (f_i base^(2i/d)) in double, d =
              64, base 10000, factors f_i = 1 for i < 4, then 1 + (i -
              3)^1.5 / 20 (non-decreasing, as the search constrains them)
  prope-f32   p-RoPE (Barbero et al. 2024): hf-f32 with only the first 24
              of 32 pairs rotating (fraction 0.75), the rest cos 1, sin 0
  wrongpair   rope d = 64, base 10000 in double, pair 7 at 1.1 theta_7:
              no schedule of ropelab's, nor non-decreasing factors
  nonrel      hf-f32 with one wrong frequency in one row: at position 40,
              pair 5 (dims 5 and 37) uses 1.001 theta_5: not relative
"""
import math
import struct
import sys

def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]

def f16(x):
    return struct.unpack('<e', struct.pack('<e', x))[0]

def npy(path, rows, cols, values, descr='<f4', fortran=False):
    code = {'<f4': '<f', '<f8': '<d'}[descr]
    shape = '(%d,)' % rows if cols is None else '(%d, %d)' % (rows, cols)
    head = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
        descr, 'True' if fortran else 'False', shape)
    pad = 64 - (10 + len(head) + 1) % 64
    head = head + ' ' * pad + '\n'
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(head)) + head.encode())
        if fortran:
            order = [values[r * cols + c] for c in range(cols) for r in range(rows)]
        else:
            order = values
        f.write(b''.join(struct.pack(code, v) for v in order))

def hf_inv_freq(d, base):
    # torch: arange(0, d, 2).float() / d, base ** that (float32 pow), 1 / x
    return [f32(1.0 / f32(math.pow(base, f32(f32(2 * i) / d)))) for i in range(d // 2)]

def hf_table(inv, positions, attn=1.0):
    cos, sin = [], []
    for p in positions:
        fr = [f32(f32(p) * w) for w in inv]
        emb = fr + fr
        cos += [f32(f32(math.cos(a)) * attn) for a in emb]
        sin += [f32(f32(math.sin(a)) * attn) for a in emb]
    return cos, sin

def yarn_inv(d, base, s, L, round_other_way=False):
    # HF _compute_yarn_parameters (truncate=True): find_correction_range
    # with floor(low), ceil(high); inv_freq in float32
    def corr_dim(rot):
        return (d * math.log(L / (rot * 2 * math.pi))) / (2 * math.log(base))
    lo, hi = corr_dim(32), corr_dim(1)
    if round_other_way:
        lo, hi = math.ceil(lo), math.floor(hi)
    else:
        lo, hi = math.floor(lo), math.ceil(hi)
    lo, hi = max(lo, 0), min(hi, d - 1)
    if lo == hi:
        hi += 0.001
    pos_freqs = [f32(math.pow(base, f32(f32(2 * i) / d))) for i in range(d // 2)]
    extra = [f32(1.0 / x) for x in pos_freqs]
    inter = [f32(1.0 / f32(s * x)) for x in pos_freqs]
    out = []
    for i in range(d // 2):
        ramp = min(max((i - lo) / (hi - lo), 0.0), 1.0)
        ext = f32(1 - f32(ramp))
        out.append(f32(f32(inter[i] * f32(1 - ext)) + f32(extra[i] * ext)))
    return out

def main():
    kind, out = sys.argv[1], sys.argv[2]
    out2 = sys.argv[3] if len(sys.argv) > 3 else None
    P = 64
    if kind in ('hf-f32', 'base-off', 'swapped', 'f16-cast', 'nonrel'):
        inv = hf_inv_freq(64, 10001 if kind == 'base-off' else 10000)
        cos, sin = hf_table(inv, range(P))
        if kind == 'nonrel':
            a = f32(f32(40.0) * f32(1.001 * inv[5]))
            for c in (5, 37):
                cos[40 * 64 + c], sin[40 * 64 + c] = f32(math.cos(a)), f32(math.sin(a))
        if kind == 'swapped':
            def inter(t):
                o = []
                for r in range(P):
                    row = t[r * 64:(r + 1) * 64]
                    for i in range(32):
                        o += [row[i], row[i]]
                return o
            cos, sin = inter(cos), inter(sin)
        if kind == 'f16-cast':
            cos, sin = [f16(v) for v in cos], [f16(v) for v in sin]
        npy(out, P, 64, cos)
        npy(out2, P, 64, sin, fortran=True)  # Fortran order on purpose
    elif kind in ('ntk-f64', 'ntk-vllm', 'longrope', 'wrongpair'):
        d, base, s = 64, 10000.0, 4.0
        with open(out, 'w') as f:
            for i in range(d // 2):
                if kind == 'ntk-f64':
                    v = 1.0 / (base * s ** (d / (d - 2))) ** (2 * i / d)
                elif kind == 'ntk-vllm':
                    v = 1.0 / (base * s) ** (2 * i / d) / s ** (2 / d)
                elif kind == 'longrope':
                    fi = 1.0 if i < 4 else 1 + (i - 3) ** 1.5 / 20
                    v = 1.0 / (fi * base ** (2 * i / d))
                else:
                    v = 1.0 / base ** (2 * i / d) * (1.1 if i == 7 else 1.0)
                f.write('%r\n' % v)
    elif kind == 'prope-f32':
        inv = hf_inv_freq(64, 10000)
        inv = [w if i < 24 else 0.0 for i, w in enumerate(inv)]
        cos, sin = hf_table(inv, range(P))
        npy(out, P, 64, cos)
        npy(out2, P, 64, sin)
    elif kind == 'ggml-f32':
        n_dims, base = 64, 500000.0
        theta_scale = f32(math.pow(base, f32(-2.0 / n_dims)))
        with open(out, 'w') as f:
            f.write('pos,pair,cos,sin\n')
            for p in range(P):
                theta = f32(p)
                for i in range(n_dims // 2):
                    f.write('%d,%d,%r,%r\n' % (p, i, f32(math.cos(theta)), f32(math.sin(theta))))
                    theta = f32(theta * theta_scale)
    elif kind == 'llama3-f64':
        d, base, s, L, lo, hi = 64, 500000.0, 8.0, 8192.0, 1.0, 4.0
        with open(out, 'w') as f:
            for i in range(d // 2):
                th = 1.0 / base ** (2 * i / d)
                wl = 2 * math.pi / th
                if wl < L / hi:
                    v = th
                elif wl > L / lo:
                    v = th / s
                else:
                    g = (L / wl - lo) / (hi - lo)
                    v = (1 - g) * th / s + g * th
                f.write('%r\n' % v)
    elif kind in ('yarn-f32', 'yarn-round'):
        inv = yarn_inv(64, 10000.0, 4.0, 4096.0, kind == 'yarn-round')
        attn = 0.1 * math.log(4.0) + 1.0
        positions = [3 * k for k in range(P)]
        cos, sin = [], []
        for p in positions:
            fr = [f32(f32(p) * w) for w in inv]
            cos += [f32(f32(math.cos(a)) * f32(attn)) for a in fr]
            sin += [f32(f32(math.sin(a)) * f32(attn)) for a in fr]
        npy(out, P, 32, cos)
        npy(out2, P, 32, sin)
    else:
        sys.exit('unknown kind ' + kind)

main()
