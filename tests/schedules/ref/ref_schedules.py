#!/usr/bin/env python3
"""ref_schedules.py: independent reference for RoPE frequency schedules.

Pure Python 3 standard library (math, struct, decimal, fractions). It is
written from the formulas, not copied from any implementation; the notes
(schedules_reference.md, kept outside the repository) cite where each formula
comes from.  Prints CSV `pair,theta[,zeta|,axis]` (theta in radians per
position, repr(float)), then `# key=value` lines, the first of which is
`# attention_factor=...`.

Two precisions:

  --precision exact  every formula is evaluated in decimal arithmetic with 60
                     significant digits (ln, exp, sqrt from the decimal
                     module, pi as a 64-digit constant) and rounded to a double
                     once, at the end.  The only errors are that final rounding
                     (<= 2^-53 relative, 1.1e-16) and the decimal evaluation
                     (~1e-55), so the printed theta is the correctly rounded
                     double of the true value except in ties too close to
                     call.  Floors and ceilings (YaRN correction range) and
                     band tests (Llama 3) are decided on the 60-digit values.
  --precision f32    emulates the variant's own float32 pipeline, rounding to
                     binary32 after every operation (struct pack/unpack).
                     Transcendental functions (pow, log, exp) are emulated as
                     the correctly rounded float32 of the double result of the
                     float32 inputs.

Exit status: 0 ok, 2 usage error or a method the variant does not have.
"""

import argparse
import math
import struct
import sys
from decimal import Decimal, getcontext

getcontext().prec = 60
PI = Decimal("3.141592653589793238462643383279502884197169399375105820974944592")
ONE = Decimal(1)
ZERO = Decimal(0)

METHODS = ("rope", "linear", "ntk", "dynamic", "yarn", "llama3", "longrope", "p-rope",
           "xpos", "mrope", "rerope", "leaky-rerope", "log-n")
VARIANTS = ("hf", "ggml", "vllm")


class Unsupported(Exception):
    pass


# ---------------------------------------------------------------- float32 ---

def f32(x):
    """Round a Python number to the nearest binary32 (ties to even)."""
    return struct.unpack("f", struct.pack("f", float(x)))[0]


def f32pow(a, b):
    return f32(math.pow(f32(a), f32(b)))


def f32log(a):
    return f32(math.log(f32(a)))


def f32sqrt(a):
    return f32(math.sqrt(f32(a)))


# ---------------------------------------------------------------- decimal ---

def dpow(b, e):
    """b ** e for Decimal b > 0, any Decimal e, at 60 digits."""
    if e == 0:
        return ONE
    return (e * b.ln()).exp()


def dln(x):
    return Decimal(x).ln()


def dfloor(x):
    return int(x.to_integral_value(rounding="ROUND_FLOOR"))


def dceil(x):
    return int(x.to_integral_value(rounding="ROUND_CEILING"))


def dec(s):
    """A command-line number as an exact Decimal ('1e4' -> 10000)."""
    return Decimal(str(s))


# ------------------------------------------------------------ exact model ---

def rope_exact(R, b):
    """theta_i = b^(-2i/R), i = 0..R/2-1."""
    return [dpow(b, Decimal(-2 * i) / Decimal(R)) for i in range(R // 2)]


def yarn_corr_dim_exact(R, L, beta, b):
    """Pair index at which the original context L makes `beta` turns:
    R * ln(L / (2 pi beta)) / (2 ln b)."""
    return Decimal(R) * (Decimal(L) / (beta * 2 * PI)).ln() / (2 * b.ln())


def get_mscale_exact(s, m=ONE):
    """0.1 * m * ln s + 1 for s > 1, else 1."""
    if s <= 1:
        return ONE
    return Decimal("0.1") * m * s.ln() + 1


def exact_schedule(a, R, b):
    """Returns (thetas as Decimal list or float-exact, attention Decimal, extra dict)."""
    m, v = a.method, a.variant
    s = dec(a.factor) if a.factor is not None else ONE
    meta = {}
    base = rope_exact(R, b)
    att = ONE

    if m in ("rope", "xpos", "rerope", "leaky-rerope", "mrope"):
        th = base
    elif m == "log-n":
        th = base
        L, N = need_L(a), a.seq_len if a.seq_len is not None else need_L(a)
        att = max(ONE, dln(N) / dln(L))
    elif m == "linear":
        th = [t / s for t in base]
    elif m == "ntk":
        if v == "vllm":
            # base*s, then every inverse frequency divided by s^(2/R)
            th = [t * dpow(s, Decimal(-(2 * i + 2)) / Decimal(R)) for i, t in enumerate(base)]
        else:
            # base' = base * s^(R/(R-2))
            th = [t * dpow(s, Decimal(-2 * i) / Decimal(R - 2)) for i, t in enumerate(base)]
    elif m == "dynamic":
        L = need_L(a)
        if v == "ggml":
            raise Unsupported("ggml/llama.cpp has no dynamic NTK scaling")
        if v == "vllm":
            # max_len = L*s computed once; (max_len/L) - (s-1) = 1: the base is unchanged
            ratio = (Decimal(L) * s / Decimal(L)) - (s - 1)
            meta["effective_len"] = repr(float(Decimal(L) * s))
        else:
            N = a.seq_len if a.seq_len is not None else L
            n_eff = max(N, L)
            ratio = (s * Decimal(n_eff) / Decimal(L)) - (s - 1)
            meta["effective_len"] = str(n_eff)
        bprime = b * dpow(ratio, Decimal(R) / Decimal(R - 2))
        meta["base_effective"] = repr(float(bprime))
        th = rope_exact(R, bprime)
    elif m == "yarn":
        L = need_L(a)
        bf, bs = dec(a.beta_fast), dec(a.beta_slow)
        if a.ramp == "paper":
            # gamma(r) with r_i = L / lambda_i = L theta_i / (2 pi); alpha = beta_slow, beta = beta_fast
            th = []
            for t in base:
                r = Decimal(L) * t / (2 * PI)
                g = (r - bs) / (bf - bs)
                g = min(ONE, max(ZERO, g))
                th.append((1 - g) * t / s + g * t)
            meta["ramp"] = "paper"
        else:
            lo = yarn_corr_dim_exact(R, L, bf, b)
            hi = yarn_corr_dim_exact(R, L, bs, b)
            meta["corr_low_raw"] = repr(float(lo))
            meta["corr_high_raw"] = repr(float(hi))
            trunc = a.truncate == "yes"
            if v == "ggml" and not trunc:
                raise Unsupported("ggml always floors/ceils the YaRN correction range")
            if trunc:
                lo, hi = Decimal(dfloor(lo)), Decimal(dceil(hi))
            lo = max(lo, ZERO)
            hi = min(hi, Decimal(R - 1))
            meta["corr_low"] = repr(float(lo))
            meta["corr_high"] = repr(float(hi))
            den = hi - lo
            if v == "ggml":
                den = max(Decimal("0.001"), den)
            elif den == 0:
                den = Decimal("0.001")
            th = []
            for i, t in enumerate(base):
                ramp = min(ONE, max(ZERO, (Decimal(i) - lo) / den))  # 0: keep theta, 1: theta/s
                ext = 1 - ramp
                th.append(t / s * (1 - ext) + t * ext)
        att = yarn_attention_exact(a, s, v)
    elif m == "llama3":
        L = need_L(a)
        lf, hf = dec(a.low_freq_factor), dec(a.high_freq_factor)
        low_wl, high_wl = Decimal(L) / lf, Decimal(L) / hf
        meta["low_freq_wavelen"] = repr(float(low_wl))
        meta["high_freq_wavelen"] = repr(float(high_wl))
        th, bands = [], []
        for t in base:
            wl = 2 * PI / t
            if wl < high_wl:
                th.append(t)
                bands.append("high")
            elif wl > low_wl:
                th.append(t / s)
                bands.append("low")
            else:
                sm = ZERO if hf == lf else (Decimal(L) / wl - lf) / (hf - lf)
                th.append((1 - sm) * t / s + sm * t)
                bands.append("mid")
        meta["bands"] = band_ranges(bands)
    elif m == "longrope":
        L = need_L(a)
        short, long_ = read_factors(a.factors, R // 2)
        N = a.seq_len if a.seq_len is not None else L
        use_long = N > L
        fac = long_ if use_long else short
        meta["factors"] = "long" if use_long else "short"
        th = [t / dec(f) for t, f in zip(base, fac)]
        att = ONE if s <= 1 else (1 + s.ln() / dln(L)).sqrt()
    elif m == "p-rope":
        d = a.dim
        k = int(float(a.fraction) * d // 2)
        meta["kept_pairs"] = str(k)
        full = rope_exact(d, b)
        th = [full[i] if i < k else ZERO for i in range(d // 2)]
    else:
        raise Unsupported(m)

    if m == "xpos":
        meta["_zeta"] = [(Decimal(2 * i) + Decimal("0.4") * R) / (Decimal("1.4") * R) for i in range(R // 2)]
    return th, att, meta


def yarn_attention_exact(a, s, v):
    X = dec(a.mscale) if a.mscale is not None else None
    Y = dec(a.mscale_all_dim) if a.mscale_all_dim is not None else None
    if v == "ggml":
        # llama.cpp reads only mscale_all_dim (rope_yarn_log_mul) and takes mscale = 1
        if Y is not None and Y != 0:
            return get_mscale_exact(s, ONE) / get_mscale_exact(s, Y)
        return get_mscale_exact(s)
    if X and Y:
        return get_mscale_exact(s, X) / get_mscale_exact(s, Y)
    return get_mscale_exact(s)


# -------------------------------------------------------------- f32 model ---

def hf_inv_freq_f32(R, b):
    """1.0 / (base ** (arange(0, R, 2).float() / R)) with float32 tensors."""
    out = []
    for i in range(R // 2):
        e = f32(f32(2 * i) / f32(R))
        out.append(f32(1.0 / f32pow(b, e)))
    return out


def hf_pos_freqs_f32(R, b):
    return [f32pow(b, f32(f32(2 * i) / f32(R))) for i in range(R // 2)]


def ggml_theta_f32(R, b):
    """theta_scale = powf(base, -2.0f/n_dims); theta_0 = 1 (position 1);
    theta_{i+1} = theta_i * theta_scale in float."""
    ts = f32pow(f32(b), f32(f32(-2.0) / f32(R)))
    out, t = [], f32(1.0)
    for _ in range(R // 2):
        out.append(t)
        t = f32(t * ts)
    return out


def ggml_corr_dim_f32(n_dims, n_ctx_orig, n_rot, base):
    den = f32(f32(f32(n_rot) * f32(2)) * f32(math.pi))
    q = f32(f32(n_ctx_orig) / den)
    num = f32(f32(n_dims) * f32log(q))
    return f32(num / f32(f32(2) * f32log(base)))


def f32_schedule(a, R, b):
    m, v = a.method, a.variant
    s = float(a.factor) if a.factor is not None else 1.0
    meta = {}
    bf = float(b)
    if v == "ggml":
        base = ggml_theta_f32(R, bf)
    else:
        base = hf_inv_freq_f32(R, bf)
    att = 1.0

    if m in ("rope", "xpos", "rerope", "leaky-rerope", "mrope"):
        th = base
    elif m == "log-n":
        th = base
        L = need_L(a)
        N = a.seq_len if a.seq_len is not None else L
        att = max(1.0, math.log(N) / math.log(L))
    elif m == "linear":
        if v == "hf":
            th = [f32(t / f32(s)) for t in base]            # inv_freq /= factor
        elif v == "vllm":
            th = [t / s for t in base]                       # positions t / s; inv_freq unscaled
            meta["note"] = "vllm scales positions; theta = float32 inv_freq / s in double"
        else:
            fs = f32(f32(1.0) / f32(s))                      # freq_scale = 1.0f/ropescale
            th = [f32(fs * t) for t in base]
    elif m == "ntk":
        if v == "vllm":
            inv = hf_inv_freq_f32(R, bf * s)
            d = f32(s ** (2.0 / R))
            th = [f32(t / d) for t in inv]
        elif v == "hf":
            th = hf_inv_freq_f32(R, bf * s ** (R / (R - 2)))
        else:
            th = ggml_theta_f32(R, f32(bf * s ** (R / (R - 2))))
            meta["note"] = "llama.cpp has no ntk type; emulated as --rope-freq-base base*s^(R/(R-2))"
    elif m == "dynamic":
        L = need_L(a)
        if v == "ggml":
            raise Unsupported("ggml/llama.cpp has no dynamic NTK scaling")
        if v == "vllm":
            ratio = (L * s / L) - (s - 1)
        else:
            N = a.seq_len if a.seq_len is not None else L
            ratio = (s * max(N, L) / L) - (s - 1)
        bprime = bf * ratio ** (R / (R - 2))
        meta["base_effective"] = repr(bprime)
        th = hf_inv_freq_f32(R, bprime)
    elif m == "yarn":
        L = need_L(a)
        if a.ramp == "paper":
            raise Unsupported("--ramp paper has no float32 pipeline (no implementation uses it)")
        if v == "ggml":
            if a.truncate != "yes":
                raise Unsupported("ggml always floors/ceils the YaRN correction range")
            lo = math.floor(ggml_corr_dim_f32(R, L, float(a.beta_fast), bf))
            hi = math.ceil(ggml_corr_dim_f32(R, L, float(a.beta_slow), bf))
            lo, hi = f32(max(0, lo)), f32(min(R - 1, hi))
            fs = f32(f32(1.0) / f32(s))
            th = []
            for i, t in enumerate(base):
                y = f32(f32(i - lo) / max(f32(0.001), f32(hi - lo)))
                ramp_mix = f32(1 - min(1.0, max(0.0, y)))      # ext_factor = 1
                ti = f32(fs * t)
                th.append(f32(f32(ti * f32(1 - ramp_mix)) + f32(t * ramp_mix)))
            meta["corr_low"], meta["corr_high"] = repr(lo), repr(hi)
            att = ggml_yarn_attention_f32(a, s, fs)
        else:
            lo = yarn_corr_dim_double(R, L, float(a.beta_fast), bf)
            hi = yarn_corr_dim_double(R, L, float(a.beta_slow), bf)
            if a.truncate == "yes":
                lo, hi = math.floor(lo), math.ceil(hi)
            lo, hi = max(lo, 0), min(hi, R - 1)
            if lo == hi:
                hi += 0.001
            meta["corr_low"], meta["corr_high"] = repr(float(lo)), repr(float(hi))
            pos = hf_pos_freqs_f32(R, bf)
            extra = [f32(1.0 / p) for p in pos]
            inter = [f32(1.0 / f32(f32(s) * p)) for p in pos]
            th = []
            for j in range(R // 2):
                lin = f32(f32(f32(j) - f32(lo)) / f32(hi - lo))
                ramp = min(1.0, max(0.0, lin))
                ef = f32(1 - ramp)
                th.append(f32(f32(inter[j] * f32(1 - ef)) + f32(extra[j] * ef)))
            att = yarn_attention_double(a, s)
    elif m == "llama3":
        L = need_L(a)
        lf, hf = float(a.low_freq_factor), float(a.high_freq_factor)
        low_wl, high_wl = L / lf, L / hf
        if v == "ggml":
            # rope_freqs from the GGUF converter (torch float32), divided at run time
            inv = hf_inv_freq_f32(R, bf)
            ff = []
            for t in inv:
                wl = f32(f32(1.0 / t) * f32(2 * math.pi))
                if wl < high_wl:
                    ff.append(1.0)
                elif wl > low_wl:
                    ff.append(f32(s))
                else:
                    sm = f32(f32(f32(f32(1.0 / wl) * f32(L)) - f32(lf)) / f32(hf - lf))
                    ff.append(f32(1.0 / f32(f32(f32(1 - sm) / f32(s)) + sm)))
            th = [f32(t / f) for t, f in zip(base, ff)]
        else:
            th = []
            for t in base:
                wl = f32(f32(1.0 / t) * f32(2 * math.pi))
                if wl < high_wl:
                    th.append(t)
                elif wl > low_wl:
                    th.append(f32(t / f32(s)))
                else:
                    if hf == lf:
                        sm = 0.0
                    else:
                        sm = f32(f32(f32(f32(1.0 / wl) * f32(L)) - f32(lf)) / f32(hf - lf))
                    th.append(f32(f32(f32(f32(1 - sm) * t) / f32(s)) + f32(sm * t)))
    elif m == "longrope":
        L = need_L(a)
        short, long_ = read_factors(a.factors, R // 2)
        N = a.seq_len if a.seq_len is not None else L
        fac = long_ if N > L else short
        meta["factors"] = "long" if N > L else "short"
        if v == "ggml":
            th = [f32(t / f32(float(f))) for t, f in zip(base, fac)]
            att = 1.0 if s <= 1 else f32(math.sqrt(1 + math.log(s) / math.log(L)))
        else:
            pos = hf_pos_freqs_f32(R, bf)
            th = [f32(1.0 / f32(f32(float(f)) * p)) for f, p in zip(fac, pos)]
            att = 1.0 if s <= 1 else math.sqrt(1 + math.log(s) / math.log(L))
    elif m == "p-rope":
        d = a.dim
        k = int(float(a.fraction) * d // 2)
        meta["kept_pairs"] = str(k)
        full = ggml_theta_f32(d, bf) if v == "ggml" else hf_inv_freq_f32(d, bf)
        th = [full[i] if i < k else 0.0 for i in range(d // 2)]
    else:
        raise Unsupported(m)

    if m == "xpos":
        meta["_zeta"] = [f32(f32(2 * i + f32(0.4 * R)) / f32(1.4 * R)) for i in range(R // 2)]
    return th, att, meta


def yarn_corr_dim_double(R, L, beta, b):
    return (R * math.log(L / (beta * 2 * math.pi))) / (2 * math.log(b))


def get_mscale_double(s, m=1.0):
    return 1.0 if s <= 1 else 0.1 * m * math.log(s) + 1.0


def yarn_attention_double(a, s):
    X = float(a.mscale) if a.mscale is not None else None
    Y = float(a.mscale_all_dim) if a.mscale_all_dim is not None else None
    if X and Y:
        return float(get_mscale_double(s, X) / get_mscale_double(s, Y))
    return get_mscale_double(s)


def ggml_yarn_attention_f32(a, s, fs):
    """Net factor on cos/sin: llama.cpp's yarn_attn_factor times ggml's own
    (1 + 0.1 ln(1/freq_scale)) inside rope_yarn (llama.cpp cancels the latter)."""
    factor = f32(f32(1.0) / fs)

    def gm(sc, m):
        return 1.0 if sc <= 1 else f32(f32(f32(f32(0.1) * f32(m)) * f32log(sc)) + f32(1.0))
    Y = float(a.mscale_all_dim) if a.mscale_all_dim is not None else 0.0
    if Y != 0.0:
        att = f32(gm(factor, 1.0) / gm(factor, Y))
    else:
        att = gm(factor, 1.0)
    att = f32(att * f32(f32(1.0) / f32(f32(1.0) + f32(f32(0.1) * f32log(factor)))))
    inner = f32(f32(1.0) + f32(f32(0.1) * f32log(f32(f32(1.0) / fs))))
    return f32(att * inner)


# ---------------------------------------------------------------- helpers ---

def need_L(a):
    if a.train_len is None:
        raise Unsupported("method %s needs --train-len" % a.method)
    return a.train_len


def read_factors(path, n):
    if not path:
        raise Unsupported("longrope needs --factors FILE (CSV pair,short,long)")
    short, long_ = [None] * n, [None] * n
    with open(path) as fh:
        header = fh.readline().strip().split(",")
        if header != ["pair", "short", "long"]:
            raise Unsupported("factors file header must be pair,short,long")
        for line in fh:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            p, sh, lg = line.split(",")
            i = int(p)
            if not 0 <= i < n:
                raise Unsupported("factors file: pair %d out of range" % i)
            short[i], long_[i] = sh.strip(), lg.strip()
    if None in short:
        raise Unsupported("factors file must have one row per pair 0..%d" % (n - 1))
    return short, long_


def band_ranges(bands):
    """'high:0-28;mid:29-34;low:35-63' style summary."""
    out, start = [], 0
    for i in range(1, len(bands) + 1):
        if i == len(bands) or bands[i] != bands[start]:
            out.append("%s:%d-%d" % (bands[start], start, i - 1))
            start = i
    return ";".join(out)


def mrope_axes(sections, npairs):
    t, h, w = sections
    if t + h + w != npairs:
        raise Unsupported("--sections must sum to R/2 = %d" % npairs)
    return ["t"] * t + ["h"] * h + ["w"] * w


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--method", required=True, choices=METHODS)
    p.add_argument("--variant", default="hf", choices=VARIANTS)
    p.add_argument("--dim", type=int, required=True)
    p.add_argument("--rot", type=int, default=None)
    p.add_argument("--base", required=True)
    p.add_argument("--factor", default=None)
    p.add_argument("--train-len", type=int, default=None)
    p.add_argument("--seq-len", type=int, default=None)
    p.add_argument("--beta-fast", default="32")
    p.add_argument("--beta-slow", default="1")
    p.add_argument("--truncate", default="yes", choices=("yes", "no"))
    p.add_argument("--mscale", default=None)
    p.add_argument("--mscale-all-dim", default=None)
    p.add_argument("--ramp", default="code", choices=("code", "paper"))
    p.add_argument("--low-freq-factor", default="1")
    p.add_argument("--high-freq-factor", default="4")
    p.add_argument("--factors", default=None)
    p.add_argument("--fraction", default="1")
    p.add_argument("--scale-base", default="512")
    p.add_argument("--window", type=int, default=None)
    p.add_argument("--leak", default=None)
    p.add_argument("--sections", default=None)
    p.add_argument("--precision", default="exact", choices=("exact", "f32"))
    return p.parse_args(argv)


def compute(a):
    """Returns (rows, attention float, meta dict, extra column name or None)."""
    R = a.rot if a.rot is not None else a.dim
    if R <= 0 or R % 2 or R > a.dim:
        raise Unsupported("--rot must be even, positive and at most --dim")
    if a.method == "p-rope" and a.rot is not None and a.rot != a.dim:
        raise Unsupported("p-rope takes --fraction, not --rot")
    b = dec(a.base)
    if a.precision == "exact":
        th, att, meta = exact_schedule(a, R, b)
        th = [float(t) for t in th]
        att = float(att)
    else:
        th, att, meta = f32_schedule(a, R, b)
    extra_name, extra = None, None
    if a.method == "xpos":
        extra_name, extra = "zeta", [repr(float(z)) for z in meta.pop("_zeta")]
        meta["scale_base"] = a.scale_base
    elif a.method == "mrope":
        if not a.sections:
            raise Unsupported("mrope needs --sections T,H,W (in pairs)")
        secs = [int(x) for x in a.sections.split(",")]
        if len(secs) != 3:
            raise Unsupported("--sections takes three numbers T,H,W")
        extra_name, extra = "axis", mrope_axes(secs, len(th))
    elif a.method in ("rerope", "leaky-rerope"):
        if a.window is None:
            raise Unsupported("%s needs --window W" % a.method)
        meta["window"] = str(a.window)
        if a.method == "leaky-rerope":
            if a.leak is None:
                raise Unsupported("leaky-rerope needs --leak K")
            meta["leak"] = a.leak
    rows = []
    for i, t in enumerate(th):
        row = [str(i), repr(float(t))]
        if extra is not None:
            row.append(extra[i])
        rows.append(row)
    return rows, att, meta, extra_name


def main(argv):
    a = parse_args(argv)
    try:
        rows, att, meta, extra_name = compute(a)
    except Unsupported as e:
        sys.stderr.write("ref_schedules: %s\n" % e)
        return 2
    out = sys.stdout
    out.write("pair,theta" + ("," + extra_name if extra_name else "") + "\n")
    for r in rows:
        out.write(",".join(r) + "\n")
    out.write("# attention_factor=%r\n" % float(att))
    out.write("# method=%s\n# variant=%s\n# precision=%s\n" % (a.method, a.variant, a.precision))
    if a.factor is not None:
        out.write("# factor=%s\n" % a.factor)
    for k in sorted(meta):
        out.write("# %s=%s\n" % (k, meta[k]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
