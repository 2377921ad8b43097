#!/usr/bin/env python3
"""ci_tables.py IMPL BUG COS SIN: a Llama 3.1 RoPE cos/sin table (d = 128,
base 500000, llama3 factor 8, L = 8192, low 1, high 4; transformers'
_compute_llama3_parameters and LlamaRotaryEmbedding.forward, half layout
cat(freqs, freqs), positions 0..1023), written in float32 by independent
code, never by ropelab, for the CI recipe of experiments/audit/README.md (tests/audit/cases).

IMPL, how the float32 frequencies and cos/sin are computed:
  numpy  numpy's own float32 ops: f32(base) ** (arange(0, d, 2) / d),
         np.cos/np.sin of float32 (not correctly rounded: numpy's `**`
         differs from a correctly rounded powf by 1-2 ulp at some pairs)
  torch  torch's float32 ops emulated op by op: pow correctly rounded
         (computed in float64, rounded once, as ATen's pow of float32 is
         in practice), reciprocal, cos/sin correctly rounded
  jax    XLA's float32 pow: exp(y * log(base)), each op in float32
         (log and exp correctly rounded, their arguments rounded)
BUG, the classic mistake made deliberately (none: a correct table):
  offset    rows hold positions 1..1024 (labelled 0..1023)
  stride    rows hold positions 0, 2, 4, ... (labelled 0, 1, 2, ...)
  arange    base ** (arange(0, d/2) / d) for arange(0, d, 2) / d
  layout    repeat_interleave(freqs, 2) (interleaved) for cat(freqs, freqs)
  sinsign   every sin negated
  swap      cos and sin exchanged (COS holds sin, SIN holds cos)
  anglebf16 freqs = outer(t, inv_freq) rounded to bfloat16 before cos, sin
  thetabf16 inv_freq rounded to bfloat16 (the buffer cast with the model)
  yarn      not a bug: a YaRN table instead (d = 64, base 10000, factor 4,
            L = 4096, beta 32/1, truncate; transformers'
            _compute_yarn_parameters), cos and sin times its attention
            factor 0.1 ln 4 + 1 (LlamaRotaryEmbedding.forward)
  noattn    that YaRN table without the attention factor (dropped)
Written as float32 .npy (np.save).
"""
import sys
import numpy as np

f32 = np.float32
D, BASE, FACTOR, L, LOW, HIGH, P = 128, 500000.0, 8.0, 8192, 1.0, 4.0, 1024


def bf16(x):
    # float32 -> bfloat16 (round to nearest even), kept in float32
    b = np.asarray(x, dtype=f32).view(np.uint32).astype(np.uint64)
    b = (b + 0x7FFF + ((b >> 16) & 1)) >> 16 << 16
    return b.astype(np.uint32).view(f32)


def pow_of(impl, base, e):
    e = e.astype(f32)
    if impl == 'numpy':
        return f32(base) ** e
    if impl == 'torch':
        return (np.float64(base) ** e.astype(np.float64)).astype(f32)
    # jax: exp(y * log(x)) with every op in float32
    lg = f32(np.log(np.float64(f32(base))))
    z = (e * lg).astype(f32)
    return np.exp(z.astype(np.float64)).astype(f32)


def trig(impl, a):
    if impl == 'numpy':
        return np.cos(a), np.sin(a)
    a = a.astype(np.float64)
    return np.cos(a).astype(f32), np.sin(a).astype(f32)


def llama3(impl, arange_bug):
    idx = np.arange(0, D // 2) if arange_bug else np.arange(0, D, 2)
    e = (idx.astype(f32) / f32(D)).astype(f32)
    inv = (f32(1.0) / pow_of(impl, BASE, e)).astype(f32)
    low_wl, high_wl = L / LOW, L / HIGH
    wavelen = ((f32(1.0) / inv) * f32(2 * np.pi)).astype(f32)
    inv_l = np.where(wavelen > low_wl, inv / f32(FACTOR), inv).astype(f32)
    smooth = (((f32(1.0) / wavelen) * f32(L) - f32(LOW)) / f32(HIGH - LOW)).astype(f32)
    smoothed = ((f32(1.0) - smooth) * inv_l / f32(FACTOR) + smooth * inv_l).astype(f32)
    medium = ~(wavelen < high_wl) & ~(wavelen > low_wl)
    return np.where(medium, smoothed, inv_l).astype(f32)


def yarn(impl):
    d, base, s, L = 64, 10000.0, 4.0, 4096
    def corr(rot):
        return (d * np.log(L / (rot * 2 * np.pi))) / (2 * np.log(base))
    low, high = max(np.floor(corr(32)), 0), min(np.ceil(corr(1)), d - 1)
    e = (np.arange(0, d, 2).astype(f32) / f32(d)).astype(f32)
    pos_freqs = pow_of(impl, base, e)
    extra = (f32(1.0) / pos_freqs).astype(f32)
    inter = (f32(1.0) / (f32(s) * pos_freqs)).astype(f32)
    ramp = np.clip((np.arange(d // 2, dtype=f32) - f32(low)) / f32(high - low), 0, 1).astype(f32)
    ef = (f32(1) - ramp).astype(f32)
    return (inter * (f32(1) - ef) + extra * ef).astype(f32)


def main():
    impl, bug, out_c, out_s = sys.argv[1:5]
    if bug in ('yarn', 'noattn'):
        pos = np.arange(512, dtype=f32)
        fr = (pos[:, None] * yarn(impl)[None, :]).astype(f32)
        c, s = trig(impl, np.concatenate([fr, fr], axis=1))
        if bug == 'yarn':
            a = f32(0.1 * np.log(4.0) + 1.0)
            c, s = (c * a).astype(f32), (s * a).astype(f32)
        np.save(out_c, c), np.save(out_s, s)
        return
    inv = llama3(impl, bug == 'arange')
    if bug == 'thetabf16':
        inv = bf16(inv)
    pos = np.arange(P, dtype=f32)
    if bug == 'offset':
        pos = pos + f32(1)
    elif bug == 'stride':
        pos = pos * f32(2)
    fr = (pos[:, None] * inv[None, :]).astype(f32)
    if bug == 'anglebf16':
        fr = bf16(fr)
    emb = np.repeat(fr, 2, axis=1) if bug == 'layout' else np.concatenate([fr, fr], axis=1)
    c, s = trig(impl, emb)
    if bug == 'sinsign':
        s = -s
    if bug == 'swap':
        c, s = s, c
    np.save(out_c, c.astype(f32))
    np.save(out_s, s.astype(f32))


main()
