#!/usr/bin/env python3
"""ref_tables.py ROPELAB: the framework pipelines' tables against a small
independent program (Python standard library only), bit for bit.

Written from the frameworks' code as read (no code copied):
  hf/vllm  inv_freq = 1.0 / (base ** (arange(0, r, 2).float() / r)) in
           float32 (transformers _compute_default_rope_parameters; vLLM
           RotaryEmbedding._compute_inv_freq); angle = f32(f32(m) * inv)
           (LlamaRotaryEmbedding.forward: position_ids.float(), one product);
           cos, sin in float32, then .to(dtype) for bfloat16 / float16.
  ggml     theta_scale = powf(base, -2/r); angle of pair i at position p =
           p * theta_scale * ... * theta_scale (i float products,
           ggml_rope_cache_init); cosf, sinf; table stays float32.
  ggml llama3  the divisors rope_freqs of llama.cpp's converter
           (convert_hf_to_gguf.py LlamaModel.generate_extra_tensors, torch
           float32), the angle theta / ff per pair (ggml_rope_cache_init).
float32 rounding: struct 'f'; float16: struct 'e' (IEEE binary16, round to
nearest even); bfloat16: the float32 value rounded to 8 significant bits
with Python's round() (ties to even), computed exactly on the double.
A float32 powf / cosf / sinf is modelled as the double result rounded to
float32, i.e. correctly rounded.  glibc's cosf and sinf are not always
(sinf(0x1.733334p+1) = 0x1.e9fb82p-3 where the correctly rounded value is
0x1.e9fb80p-3: 0.52 ulp); the glibc manual ("Errors in Math Functions")
bounds them by 1 ulp on x86_64.  So the frequencies and angles must agree
bit for bit, and each cos/sin entry must be the reference's or one float32
ulp from it before the narrow cast (an angle off by one float32 ulp at
m ~ 2^31 moves cos by hundreds of ulps, so the tolerance does not hide a
wrong angle).  Prints one TAP line per comparison."""
import math
import struct
import subprocess
import sys


def f32(x):
    return struct.unpack("f", struct.pack("f", float(x)))[0]


def f16(x):
    try:
        return struct.unpack("e", struct.pack("e", float(x)))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def bf16(x):
    x = f32(x)
    if x == 0 or math.isinf(x) or math.isnan(x):
        return x
    m, e = math.frexp(x)          # x = m 2^e, 0.5 <= |m| < 1
    q = round(m * 256)            # 8 significant bits, ties to even
    return math.ldexp(q, e - 8)


def hf_inv(r, base):
    return [f32(1.0 / f32(math.pow(f32(base), f32(f32(2 * i) / f32(r))))) for i in range(r // 2)]


def hf_row(r, base, m):
    out = []
    for inv in hf_inv(r, base):
        a = f32(f32(m) * inv)
        out.append((f32(math.cos(a)), f32(math.sin(a))))
    return out


def ggml_row(r, base, p):
    ts = f32(math.pow(f32(base), f32(-2.0 / r)))
    t, out = f32(p), []
    for _ in range(r // 2):
        out.append((f32(math.cos(t)), f32(math.sin(t))))
        t = f32(t * ts)
    return out


def ggml_llama3_ff(r, base, s, L, lf=1.0, hf=4.0):
    """rope_freqs as llama.cpp's convert_hf_to_gguf.py LlamaModel.
    generate_extra_tensors computes it: torch float32 freqs; for each 0-d
    float32 tensor, a Python number over it is its reciprocal times the
    number in float32; the list stored as float32."""
    out = []
    for freq in hf_inv(r, base):
        wl = f32(f32(1.0 / freq) * f32(2 * math.pi))
        if wl < L / hf:
            out.append(1.0)
        elif wl > L / lf:
            out.append(f32(s))
        else:
            sm = f32(f32(f32(f32(1.0 / wl) * f32(L)) - f32(lf)) / f32(hf - lf))
            out.append(f32(1.0 / f32(f32(f32(1.0 - sm) / f32(s)) + sm)))
    return out


def ggml_llama3_row(r, base, s, L, p):
    """ggml_rope_cache_init with freq_factors: theta / ff per pair, theta
    = p * theta_scale^i by float products; freq_scale 1, ext_factor 0."""
    ff = ggml_llama3_ff(r, base, s, L)
    ts = f32(math.pow(f32(base), f32(-2.0 / r)))
    t, out = f32(p), []
    for i in range(r // 2):
        a = f32(t / ff[i])
        out.append((f32(math.cos(a)), f32(math.sin(a))))
        t = f32(t * ts)
    return out


def ulp32(x):
    if x == 0:
        return 2.0 ** -149
    m, e = math.frexp(abs(x))
    return math.ldexp(1.0, max(e - 24, -149))


def accept(g, w, rnd):
    """g: ropelab's entry; w: the correctly rounded float32 before the cast."""
    return g == rnd(w) or g == rnd(f32(w + ulp32(w))) or g == rnd(f32(w - ulp32(w)))


def ropelab_rows(exe, args, pos):
    cmd = [exe, "angles", "--no-meta", "--no-header", "--from", str(pos), "--to", str(pos)] + args
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    rows = []
    for line in out.strip().splitlines():
        _, _, c, s = line.split(",")
        rows.append((float(c), float(s)))
    return rows


def main():
    exe = sys.argv[1]
    n = 0
    failed = 0
    positions = list(range(0, 33)) + [100, 1000, 4095, 65535, 131071, 1000003, 16777217,
                                        123456789, 2147483647]
    cases = []
    for r in (8, 16):
        for base in (10000.0, 500000.0):
            cases.append(("hf-fp32", r, base, hf_row, lambda v: v))
            cases.append(("hf-bf16", r, base, hf_row, bf16))
            cases.append(("hf-f16", r, base, hf_row, f16))
            cases.append(("vllm-bf16", r, base, hf_row, bf16))
            cases.append(("ggml-f32", r, base, ggml_row, lambda v: v))
    for name, r, base, row, rnd in cases:
        bad, off = [], [0]
        for m in positions:
            got = ropelab_rows(exe, ["--precision", name, "--dim", str(r), "--base", repr(base)], m)
            want = row(r, base, m)
            for i, (g, w) in enumerate(zip(got, want)):
                if not (accept(g[0], w[0], rnd) and accept(g[1], w[1], rnd)):
                    bad.append((m, i, g, (rnd(w[0]), rnd(w[1]))))
                elif g != (rnd(w[0]), rnd(w[1])):
                    off[0] += 1
        n += 1
        ok = not bad and len(positions) > 0
        failed += not ok
        print(("ok" if ok else "not ok") + f" {n} - {name} d={r} base {base:g}: cos/sin tables "
              f"at {len(positions)} positions, {off[0]} entries 1 ulp off (glibc)" +
              ("" if ok else f" ({len(bad)} differ, first pos {bad[0][0]} pair {bad[0][1]}: "
                             f"got {bad[0][2]!r} want {bad[0][3]!r})"))
    # the frequencies themselves (ropelab freqs --precision hf-fp32)
    for r in (8, 16, 128):
        for base in (10000.0, 500000.0):
            out = subprocess.run([exe, "freqs", "--no-meta", "--no-header", "--precision", "hf-fp32",
                                  "--dim", str(r), "--base", repr(base)],
                                 check=True, capture_output=True, text=True).stdout
            got = [float(l.split(",")[1]) for l in out.strip().splitlines()]
            want = hf_inv(r, base)
            n += 1
            ok = got == want
            failed += not ok
            print(("ok" if ok else "not ok") + f" {n} - hf-fp32 inv_freq d={r} base {base:g} bit for bit")
    # ggml llama3: the converter's float32 divisors (rope_freqs), theta/ff
    # per pair; the frequencies (the angle at position 1) bit for bit and
    # the tables as above.  Llama 3.1's configuration (d 128, base 5e5,
    # s 8, L 8192) and a small one whose smooth band is a few pairs.
    for r, base, sc, L in ((128, 500000.0, 8, 8192), (16, 10000.0, 4, 64)):
        args = ["--precision", "ggml-f32", "--method", "llama3", "--factor", str(sc),
                "--train-len", str(L), "--dim", str(r), "--base", repr(base)]
        out = subprocess.run([exe, "freqs", "--no-meta", "--no-header"] + args,
                             check=True, capture_output=True, text=True).stdout
        got = [float(l.split(",")[1]) for l in out.strip().splitlines()]
        want = []
        ff = ggml_llama3_ff(r, base, sc, L)
        ts = f32(math.pow(f32(base), f32(-2.0 / r)))
        t = 1.0
        for i in range(r // 2):
            want.append(f32(t / ff[i]))
            t = f32(t * ts)
        n += 1
        ok = got == want
        failed += not ok
        nb = sum(1 for v in ff if v not in (1.0, float(sc)))
        print(("ok" if ok else "not ok") + f" {n} - ggml-f32 llama3 d={r} base {base:g} s={sc} "
              f"L={L}: frequencies theta/ff bit for bit ({nb} pairs in the smooth band)" +
              ("" if ok else f" (first differs at pair {next(i for i in range(len(got)) if got[i] != want[i])})"))
        bad, off = [], 0
        for m in (0, 1, 7, 1000, 65535, 123456789):
            rows = ropelab_rows(exe, args, m)
            for i, (g, w) in enumerate(zip(rows, ggml_llama3_row(r, base, sc, L, m))):
                ident = lambda v: v
                if not (accept(g[0], w[0], ident) and accept(g[1], w[1], ident)):
                    bad.append((m, i, g, w))
                elif g != w:
                    off += 1
        n += 1
        failed += bool(bad)
        print(("ok" if not bad else "not ok") + f" {n} - ggml-f32 llama3 d={r}: cos/sin tables at 6 "
              f"positions, {off} entries 1 ulp off (glibc)" +
              ("" if not bad else f" (first bad pos {bad[0][0]} pair {bad[0][1]}: got {bad[0][2]!r} "
                                  f"want {bad[0][3]!r})"))
    print(f"1..{n}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
