#!/usr/bin/env python3
"""ref_apply.py APPLY_DUMP: rl_rope_apply_pipeline against a small
independent program (Python standard library only).

Written from the frameworks' code as read (no code copied):
  Hugging Face transformers, models/llama/modeling_llama.py:
    rotate_half(x) = cat((-x2, x1)), x1 = x[..., :d/2], x2 = x[..., d/2:];
    apply_rotary_pos_emb: q_embed = (q * cos) + (rotate_half(q) * sin),
    in q's dtype (cos, sin were cast with .to(x.dtype)): each product and
    the sum is a PyTorch op on bfloat16/float16 tensors, computed in
    float32 and rounded to the dtype (so y = rd(f32(rd(x c) + rd(-x' s))));
    LlamaRotaryEmbedding.forward: cos = cat(freqs, freqs).cos() *
    attention_scaling in float32, then .to(x.dtype).
  modeling_rope_utils.py: inv_freq = 1 / base ** (arange(0, d, 2).float()
    / d) (float32); _compute_yarn_parameters: pos_freqs = base ** (arange
    / d), extrapolation 1 / pos_freqs, interpolation 1 / (factor *
    pos_freqs), find_correction_range (math.log, floor/ceil, clamped to
    [0, d - 1]), linear_ramp_factor ((arange(d/2).float() - low) / (high -
    low), clamped), inv_freq = interp * (1 - ef) + extra * ef with ef = 1 -
    ramp, all float32; attention_factor = 0.1 ln(factor) + 1 (get_mscale).
  vLLM (rotary_embedding/base.py forward_native): the same products in the
    model dtype (x1 * cos - x2 * sin, x2 * cos + x1 * sin).
  ggml-cpu/ops.cpp rotate_pairs: x0 * cos - x1 * sin in float32, rounded
    once to the tensor type; the cache as in ref_tables.py (angle p *
    theta_scale^i by float products).  Release builds (-mfma) contract it:
    GCC 12 -O3 -mfma emits fma(x0, cos, -(x1 * sin)) and fma(x0, sin, x1
    * cos) (ggml-f32, ggml-f16; the fused op is computed here exactly with
    fractions and rounded once); ggml-f32-strict / ggml-f16-strict keep
    every product rounded.
The interleaved layout pairs (x_2i, x_2i+1) with the same arithmetic
(Meta's llama, GPT-J); HF's half layout pairs (x_i, x_i+d/2).

float32: struct 'f'; float16: struct 'e'; bfloat16: the float32 value
rounded to 8 significant bits, ties to even.  A product of two bfloat16 or
float16 numbers is exact in double (<= 22 bits), so rd(f32(a*b)) is
computed as rd(a*b) with the float32 step kept anyway.

Tolerance: cosf/sinf are modelled as correctly rounded; glibc's are within
1 ulp (see ref_tables.py), so for each pair the expected output is
computed for the float32 cos in {c, c +- 1 ulp} and sin likewise (9
candidates) and ropelab must equal one of them bit for bit (an angle or
an operation order off by anything changes more than that).  Prints TAP."""
import math
import random
import struct
import subprocess
import sys
from fractions import Fraction


def f32(x):
    return struct.unpack("f", struct.pack("f", float(x)))[0]


def f16(x):
    return struct.unpack("e", struct.pack("e", float(x)))[0]


def bf16(x):
    x = f32(x)
    if x == 0 or math.isinf(x) or math.isnan(x):
        return x
    m, e = math.frexp(x)
    return math.ldexp(round(m * 256), e - 8)


RD = {"f32": f32, "bf16": bf16, "f16": f16}


def ulp32(x):
    if x == 0:
        return 2.0 ** -149
    m, e = math.frexp(abs(x))
    return math.ldexp(1.0, max(e - 24, -149))


def hf_inv(r, base):
    return [f32(1.0 / f32(math.pow(f32(base), f32(f32(2 * i) / f32(r))))) for i in range(r // 2)]


def hf_yarn_inv(r, base, factor, L, beta_fast=32.0, beta_slow=1.0):
    def corr(rot):
        return r * math.log(L / (rot * 2 * math.pi)) / (2 * math.log(base))
    low, high = max(math.floor(corr(beta_fast)), 0), min(math.ceil(corr(beta_slow)), r - 1)
    if low == high:
        high += 0.001
    out = []
    for i in range(r // 2):
        pos = f32(math.pow(f32(base), f32(f32(2 * i) / f32(r))))
        extra, inter = f32(1.0 / pos), f32(1.0 / f32(f32(factor) * pos))
        ramp = min(1.0, max(0.0, f32(f32(f32(i) - f32(low)) / f32(high - low))))
        ef = f32(1.0 - ramp)
        out.append(f32(f32(inter * f32(1.0 - ef)) + f32(extra * ef)))
    return out


def hf_table(inv, m, attn):
    """float32 cos, sin (before the cast), attention factor applied."""
    rows = []
    for t in inv:
        a = f32(f32(m) * t)
        c, s = f32(math.cos(a)), f32(math.sin(a))
        rows.append((c, s))
    return rows


def ggml_table(r, base, p):
    ts = f32(math.pow(f32(base), f32(-2.0 / r)))
    t, rows = f32(p), []
    for _ in range(r // 2):
        rows.append((f32(math.cos(t)), f32(math.sin(t))))
        t = f32(t * ts)
    return rows


def next32(x, d):
    """The float32 next to float32 x towards sign d (+1 / -1)."""
    u = struct.unpack("<I", struct.pack("<f", x))[0]
    if x == 0:
        return math.copysign(2.0 ** -149, d)
    u += 1 if (x > 0) == (d > 0) else -1
    return struct.unpack("<f", struct.pack("<I", u))[0]


def fma32(a, b, c):
    """a * b + c rounded once to float32 (ties to even), exactly."""
    fr = Fraction(a) * Fraction(b) + Fraction(c)
    f = f32(float(fr))
    best = min((abs(Fraction(g) - fr), struct.unpack("<I", struct.pack("<f", g))[0] & 1, g)
               for g in (f, next32(f, 1), next32(f, -1)) if math.isfinite(g))
    return best[2]


def pair_out(fam, act, c, s, attn, xa, xb):
    rd = RD[act]
    if fam == "ggml-fma":
        # cache float32, the release build's fused multiply-adds, one rounding
        return rd(fma32(xa, c, -f32(xb * s))), rd(fma32(xa, s, f32(xb * c)))
    if fam == "ggml":
        # cache float32 (times mscale 1 here), fused, one rounding
        return rd(f32(f32(xa * c) - f32(xb * s))), rd(f32(f32(xa * s) + f32(xb * c)))
    # torch: table = rd(f32(cos * f32(attn))), then each op rounded to act
    if attn != 1.0:
        c, s = f32(c * f32(attn)), f32(s * f32(attn))
    c, s = rd(c), rd(s)
    ya = rd(f32(rd(f32(xa * c)) + rd(f32(-xb * s))))   # x1 cos + (-x2) sin
    yb = rd(f32(rd(f32(xb * c)) + rd(f32(xa * s))))    # x2 cos + x1 sin
    return ya, yb


PIPES = {  # name: (family, activation dtype)
    "hf-fp32": ("torch", "f32"), "hf-bf16": ("torch", "bf16"), "hf-f16": ("torch", "f16"),
    "vllm-bf16": ("torch", "bf16"), "ggml-f32": ("ggml-fma", "f32"),
    "ggml-f16": ("ggml-fma", "f16"), "ggml-f32-strict": ("ggml", "f32"),
    "ggml-f16-strict": ("ggml", "f16"),
}


def main():
    exe = sys.argv[1]
    rng = random.Random(20240917)
    n = failed = 0
    cases = []
    for name in PIPES:
        for layout in ("half", "interleaved"):
            for dim, rot in ((8, 8), (10, 8)):
                for m in (0, 1, 7, 100, 4097, 123457, 2147483647):
                    cases.append((name, dim, rot, 10000.0, layout, 0, "rope", 1, 0, m))
    for name in ("hf-bf16", "hf-f16", "hf-fp32"):
        for m in (0, 3, 1000, 65537):
            cases.append((name, 16, 16, 10000.0, "half", 1, "yarn", 8, 64, m))
            cases.append((name, 16, 16, 10000.0, "half", 0, "yarn", 8, 64, m))
    for (name, dim, rot, base, layout, with_attn, method, factor, L, m) in cases:
        fam, act = PIPES[name]
        x = [f32(rng.gauss(0, 1) * (1 if k % 3 else 300)) for k in range(dim)]
        out = subprocess.run([exe, name, str(dim), str(rot), repr(base), layout, str(with_attn),
                              method, str(factor), str(L), str(m)] + [x_.hex() for x_ in x],
                             check=True, capture_output=True, text=True).stdout.split()
        got = [float.fromhex(v) for v in out[2:]]
        attn = 0.1 * math.log(factor) + 1.0 if (method == "yarn" and with_attn) else 1.0
        if fam.startswith("ggml"):
            tab = ggml_table(rot, base, m)
        else:
            inv = hf_inv(rot, base) if method == "rope" else hf_yarn_inv(rot, base, factor, L)
            tab = hf_table(inv, m, attn)
        rd = RD[act]
        xr = [rd(v) for v in x]
        bad, exact_hits = [], 0
        for i, (c, s) in enumerate(tab):
            a, b = (i, i + rot // 2) if layout == "half" else (2 * i, 2 * i + 1)
            want = pair_out(fam, act, c, s, attn, xr[a], xr[b])
            cands = {pair_out(fam, act, f32(c + dc * ulp32(c)), f32(s + ds * ulp32(s)), attn,
                              xr[a], xr[b]) for dc in (-1, 0, 1) for ds in (-1, 0, 1)}
            g = (got[a], got[b])
            if g == want:
                exact_hits += 1
            elif g not in cands:
                bad.append((i, g, want))
        for j in range(rot, dim):
            if got[j] != xr[j]:
                bad.append((j, got[j], xr[j]))
        n += 1
        ok = not bad
        failed += not ok
        print(("ok" if ok else "not ok") + f" {n} - {name} {layout} d={dim} rot={rot} {method}"
              f" attn={with_attn} m={m}: {exact_hits}/{rot // 2} pairs on the correctly rounded"
              " table, the rest within 1 ulp of cosf/sinf" +
              ("" if ok else f" (first bad: pair/dim {bad[0][0]} got {bad[0][1]} want {bad[0][2]})"))
    print(f"1..{n}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
