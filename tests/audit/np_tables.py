#!/usr/bin/env python3
"""np_tables.py KIND OUT [OUT2]: RoPE tables written with numpy the way
users dump them (np.save, np.savetxt), independently of ropelab, for the
audit tests.  Where a kind follows a framework (Hugging Face transformers'
LlamaRotaryEmbedding), the framework's formula is computed here in numpy,
op by op in the dtype the framework uses (float32 tensors; a Python scalar
over a tensor is tensor.reciprocal() * scalar in torch), with pow, cos and
sin correctly rounded (computed in float64, rounded once to float32, as
glibc's powf/cosf/sinf are in practice).  numpy's own float32 `**` and
np.cos are used only where a kind says so (they are what users write).

Kinds (OUT: .npy cos, OUT2: .npy sin, unless said):
  llama3-bf16  HF Llama 3.1 (d = 128, base 500000, factor 8, L = 8192,
               low 1, high 4), positions 0..1023, cos and sin in float32,
               rounded to bfloat16 (nearest even), stored as float32 (what
               t.float().numpy() writes); half layout
  linear-f16   HF linear (d = 64, base 10000, factor 4), positions
               0..511, cast to float16, stored as float16 .npy
  rope-f16     HF rope (d = 64, base 10000), positions 0..511, float16
  llama3-np32  Llama 3.1 as above in float32 written with numpy's own
               float32 `**` and np.cos/np.sin (no bfloat16), positions
               0..2047, half layout
  rope-np64    np.cos(np.outer(pos, inv)), inv = 1 / base ** (arange(0,
               d, 2) / d) in float64, d = 64, base 10000, positions
               0..4095; one column per pair; CSV with header
               pos,cos0..,sin0.. (OUT only)
  every7       HF rope float32 (d = 64, base 10000), positions 0, 7, 14,
               ..., 7 * 511; CSV pos,cos0..,sin0.. per pair (OUT only)
  batch        the same at 300 distinct positions drawn at random from
               0..65535 (seed 7), in random order (a batch's
               position_ids); CSV as every7 (OUT only)
  sign17       HF rope float32, d = 64, base 10000, half layout,
               positions 0..255, with the sin of pair 17 negated (both
               its columns, 17 and 49)
  zero5        the same table with pair 5's frequency zeroed (cos 1,
               sin 0 in columns 5 and 37)
  col40        the same table with only column 40 (pair 8's second
               column) with its sin negated
  dm2          inverse frequencies with d - 2 in the exponent: 1 / 10000
               ** (arange(0, 64, 2) / 62), float64, one per line (OUT only)
  pairs128     HF rope float32, d = 128, base 10000, one column per pair
               (64 columns, none repeating), positions 0..63
  swapcs       HF rope float32, d = 64, base 10000, half layout,
               positions 0..255, with cos and sin exchanged throughout
               (OUT holds sin(m theta), OUT2 cos(m theta))
  vllm-swap    vLLM's cos_sin_cache (rope d = 64, base 10000, float32:
               cat(cos, sin), one column per pair) with its two halves
               exchanged (cat(sin, cos)), split as users split it: OUT
               cache[:, :32] as cos, OUT2 cache[:, 32:] as sin; 0..255
  negsin       the sign17 table with every sin negated: R(-m theta), what
               rotate_half with its halves exchanged (cat(x2, -x1))
               applies
  yarn-bf16    HF yarn (d = 64, base 10000, factor 4, L = 4096, beta 32/1,
               truncate; attention factor 0.1 ln 4 + 1), positions
               0..511, bfloat16 (stored as float32) in transformers'
               order: cos(emb) * attention_scaling in float32, then cast
  yarn-bf16-after  the same with the attention factor applied after the
               cast: bf16(f32(bf16(cos)) * f32(a)), what
               cos.to(bfloat16) * a computes (ATen multiplies a bfloat16
               tensor by a scalar in float32 and rounds to bfloat16)
"""
import sys
import numpy as np

f32 = np.float32


def pow32(base, e):
    # powf correctly rounded: base ** e in float64, rounded once
    return (np.float64(base) ** e.astype(np.float64)).astype(f32)


def cos32(a):
    return np.cos(a.astype(np.float64)).astype(f32)


def sin32(a):
    return np.sin(a.astype(np.float64)).astype(f32)


def bf16(x):
    # float32 -> bfloat16 (round to nearest even), kept in float32
    b = x.astype(f32).view(np.uint32).astype(np.uint64)
    b = (b + 0x7FFF + ((b >> 16) & 1)) >> 16 << 16
    return b.astype(np.uint32).view(f32)


def hf_inv_freq(d, base, numpy_pow=False):
    # _compute_default_rope_parameters: 1.0 / (base ** (arange(0, d, 2).float() / d))
    e = np.arange(0, d, 2, dtype=np.int64).astype(f32) / f32(d)
    p = f32(base) ** e if numpy_pow else pow32(base, e)
    return f32(1.0) / p


def hf_llama3(d, base, factor, L, low, high, numpy_pow=False):
    # _compute_llama3_parameters, every tensor op in float32
    inv = hf_inv_freq(d, base, numpy_pow)
    low_wl, high_wl = L / low, L / high  # Python floats
    wavelen = (f32(1.0) / inv) * f32(2 * np.pi)  # 2 * math.pi / inv_freq
    inv_l = np.where(wavelen > low_wl, inv / f32(factor), inv)
    smooth = ((f32(1.0) / wavelen) * f32(L) - f32(low)) / f32(high - low)
    smoothed = (f32(1.0) - smooth) * inv_l / f32(factor) + smooth * inv_l
    medium = ~(wavelen < high_wl) & ~(wavelen > low_wl)
    return np.where(medium, smoothed, inv_l).astype(f32)


def hf_table(inv, pos, numpy_trig=False):
    # LlamaRotaryEmbedding.forward: freqs = inv_freq @ position_ids (float32,
    # one product per entry), emb = cat(freqs, freqs), cos, sin (x 1.0)
    fr = np.asarray(pos, dtype=f32)[:, None] * inv[None, :]
    emb = np.concatenate([fr, fr], axis=1)
    if numpy_trig:
        return np.cos(emb), np.sin(emb)
    return cos32(emb), sin32(emb)


def hf_yarn(d, base, factor, L):
    # _compute_yarn_parameters (beta_fast 32, beta_slow 1, truncate), the
    # tensors in float32, the correction range in Python doubles
    def corr(rot):
        return (d * np.log(L / (rot * 2 * np.pi))) / (2 * np.log(base))
    low, high = max(np.floor(corr(32)), 0), min(np.ceil(corr(1)), d - 1)
    e = np.arange(0, d, 2, dtype=np.int64).astype(f32) / f32(d)
    pos_freqs = pow32(base, e)
    extra = f32(1.0) / pos_freqs
    inter = f32(1.0) / (f32(factor) * pos_freqs)
    ramp = np.clip((np.arange(d // 2, dtype=f32) - f32(low)) / f32(high - low), 0, 1).astype(f32)
    ef = f32(1) - ramp
    return (inter * (f32(1) - ef) + extra * ef).astype(f32)


def pairs_csv(path, pos, c, s):
    n = c.shape[1]
    head = 'pos,' + ','.join('cos%d' % i for i in range(n)) + ',' + \
        ','.join('sin%d' % i for i in range(n))
    np.savetxt(path, np.column_stack([np.asarray(pos, dtype=np.float64), c, s]),
               delimiter=',', header=head, comments='', fmt='%.17g')


def main():
    kind, out = sys.argv[1], sys.argv[2]
    out2 = sys.argv[3] if len(sys.argv) > 3 else None
    if kind == 'llama3-bf16':
        c, s = hf_table(hf_llama3(128, 500000, 8, 8192, 1, 4), np.arange(1024))
        np.save(out, bf16(c)), np.save(out2, bf16(s))
    elif kind in ('linear-f16', 'rope-f16'):
        inv = hf_inv_freq(64, 10000)
        if kind == 'linear-f16':
            inv = inv / f32(4)  # inv_freq /= factor
        c, s = hf_table(inv, np.arange(512))
        np.save(out, c.astype(np.float16)), np.save(out2, s.astype(np.float16))
    elif kind == 'llama3-np32':
        inv = hf_llama3(128, 500000, 8, 8192, 1, 4, numpy_pow=True)
        c, s = hf_table(inv, np.arange(2048), numpy_trig=True)
        np.save(out, c), np.save(out2, s)
    elif kind == 'rope-np64':
        pos = np.arange(4096)
        inv = 1.0 / (10000 ** (np.arange(0, 64, 2) / 64))
        ang = np.outer(pos, inv)
        pairs_csv(out, pos, np.cos(ang), np.sin(ang))
    elif kind in ('every7', 'batch'):
        if kind == 'every7':
            pos = 7 * np.arange(512)
        else:
            pos = np.random.default_rng(7).choice(65536, 300, replace=False)
        c, s = hf_table(hf_inv_freq(64, 10000), pos)
        pairs_csv(out, pos, c[:, :32], s[:, :32])
    elif kind in ('sign17', 'zero5', 'col40'):
        c, s = hf_table(hf_inv_freq(64, 10000), np.arange(256))
        if kind == 'sign17':
            s[:, 17] = -s[:, 17]
            s[:, 49] = -s[:, 49]
        elif kind == 'zero5':
            c[:, 5] = c[:, 37] = 1
            s[:, 5] = s[:, 37] = 0
        else:
            s[:, 40] = -s[:, 40]
        np.save(out, c), np.save(out2, s)
    elif kind == 'dm2':
        np.savetxt(out, 1 / (10000.0 ** (np.arange(0, 64, 2) / 62)), fmt='%.17g')
    elif kind == 'pairs128':
        c, s = hf_table(hf_inv_freq(128, 10000), np.arange(64))
        np.save(out, c[:, :64]), np.save(out2, s[:, :64])
    elif kind in ('swapcs', 'negsin'):
        c, s = hf_table(hf_inv_freq(64, 10000), np.arange(256))
        if kind == 'swapcs':
            np.save(out, s), np.save(out2, c)
        else:
            np.save(out, c), np.save(out2, -s)
    elif kind == 'vllm-swap':
        c, s = hf_table(hf_inv_freq(64, 10000), np.arange(256))
        cache = np.concatenate([s[:, :32], c[:, :32]], axis=1)  # cat(sin, cos)
        np.save(out, cache[:, :32]), np.save(out2, cache[:, 32:])
    elif kind in ('yarn-bf16', 'yarn-bf16-after'):
        a = f32(0.1 * np.log(4.0) + 1.0)
        c, s = hf_table(hf_yarn(64, 10000, 4.0, 4096), np.arange(512))
        if kind == 'yarn-bf16':
            c, s = bf16(c * a), bf16(s * a)
        else:
            c, s = bf16(bf16(c) * a), bf16(bf16(s) * a)
        np.save(out, c), np.save(out2, s)
    else:
        sys.exit('np_tables.py: unknown kind ' + kind)


main()
