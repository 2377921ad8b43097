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
    print(f"1..{n}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
