#!/usr/bin/env python3
"""compare_freqs.py: compare a ropelab `freqs` CSV with a ref_schedules.py CSV.

usage: compare_freqs.py MODE VARIANT METHOD ROPELAB_CSV REF_CSV LABEL

MODE is `exact` (reference evaluated exactly) or `f32` (reference is the
variant's float32 pipeline). Prints one `ok LABEL` or `not ok LABEL: why`
line; exit 0 / 1.

Tolerances (relative, per pair; theta = 0 must match exactly):

  exact: 2^-53 * (4 + 2 |ln theta_i|).  The reference is the correctly
         rounded double (<= 2^-53); the rest is what a double evaluation of
         exp/pow/log chains in ropelab may cost: an argument x = ln theta_i
         carried with a relative error of a few 2^-53 moves theta_i by
         |x| times that, plus a few roundings for the blend (YaRN, Llama 3).
         For base 5e5 and the last pair (|ln theta| = 13.1) this is 3.4e-15;
         for pair 0 it is 4.4e-16.  Llama 3 times (1 + s): the smoothing
         weight (L/lambda - lf)/(hf - lf) cancels near the low-frequency edge
         and its error is amplified by up to ~s in theta' (plain double
         evaluation measured up to 2.2x the unamplified bound at s = 8).
  f32:   u = 2^-24 (float32 unit roundoff), tolerance u * (K + |ln theta_i|)
         with K the number of float32 roundings the variant's pipeline puts
         on pair i, bounded generously:
           hf, vllm: K = 4   (exponent 2i/R, pow, reciprocal, one spare)
           ggml:     K = 2 i + 4   (powf for theta_scale, then i float
                     multiplications: each adds <= u, and the theta_scale
                     error is raised to the i-th power)
         plus, by method: linear +1, ntk +2, dynamic +2, yarn +6 (factor
         product, ramp, two products and a sum), llama3 +8 (divisor or
         smoothing chain), longrope +2 (factor rounded to float32, product).
         The |ln theta_i| term covers an exponent 2i/R that is not exact in
         float32 (R not a power of two) and the pow of a rounded base.
  attention_factor: exact 1e-15 relative; f32: hf/vllm compute it in Python
         doubles (1e-15), ggml in float32 (8 u = 4.8e-7).
"""

import math
import sys

U32 = 2.0 ** -24
U64 = 2.0 ** -53

METHOD_EXTRA = {"linear": 1, "ntk": 2, "dynamic": 2, "yarn": 6, "llama3": 8, "longrope": 2}


def theta_tolerance(mode, variant, method, i, theta, factor=1.0):
    lt = abs(math.log(theta)) if theta > 0 else 0.0
    if mode == "exact":
        tol = U64 * (4 + 2 * lt)
        if method == "llama3":
            # smooth = (L/lambda - lf)/(hf - lf) cancels near the low edge; its
            # error reaches theta' amplified by up to ~s (theta' ~ theta/s there)
            tol *= 1 + factor
        return tol
    k = (2 * i + 4) if variant == "ggml" else 4
    k += METHOD_EXTRA.get(method, 0)
    return U32 * (k + lt)


def attention_tolerance(mode, variant):
    if mode == "f32" and variant == "ggml":
        return 8 * U32
    return 1e-15


def parse(path):
    """Returns (rows {pair: (theta, axis or None)}, meta {key: value})."""
    meta, rows, header = {}, {}, None
    with open(path) as fh:
        for line in fh:
            line = line.rstrip("\n")
            if not line:
                continue
            if line.startswith("#"):
                body = line[1:].strip()
                if "=" in body:
                    k, v = body.split("=", 1)
                    meta[k.strip()] = v.strip()
                continue
            cells = line.split(",")
            if header is None:
                header = cells
                continue
            rec = dict(zip(header, cells))
            rows[int(rec["pair"])] = (float(rec["theta"]), rec.get("axis"))
    if header is None or "pair" not in header or "theta" not in header:
        raise ValueError("%s: no pair,theta header" % path)
    return rows, meta


def rel(a, b):
    if a == b:
        return 0.0
    return abs(a - b) / max(abs(a), abs(b))


def compare(mode, variant, method, got_path, ref_path):
    """Returns a list of failure strings (empty when everything agrees)."""
    got, gmeta = parse(got_path)
    ref, rmeta = parse(ref_path)
    bad = []
    if sorted(got) != sorted(ref):
        return ["pairs differ: ropelab %d rows, reference %d rows" % (len(got), len(ref))]
    worst = (0.0, None)
    factor = float(rmeta.get("factor", "1"))
    for i in sorted(ref):
        t_ref, ax_ref = ref[i]
        t_got, ax_got = got[i]
        if ax_ref is not None and ax_ref != ax_got:
            bad.append("pair %d axis %s, expected %s" % (i, ax_got, ax_ref))
        if t_ref == 0.0 or t_got == 0.0:
            if t_ref != t_got:
                bad.append("pair %d theta %r, expected %r" % (i, t_got, t_ref))
            continue
        e = rel(t_got, t_ref)
        tol = theta_tolerance(mode, variant, method, i, t_ref, factor)
        if e > tol:
            bad.append("pair %d theta %r, expected %r (rel %.3g > %.3g)" % (i, t_got, t_ref, e, tol))
        if tol > 0 and e / tol > worst[0]:
            worst = (e / tol, i)
    a_ref = float(rmeta.get("attention_factor", "nan"))
    if "attention_factor" not in gmeta:
        bad.append("no # attention_factor= line")
    else:
        a_got = float(gmeta["attention_factor"])
        e = rel(a_got, a_ref)
        if e > attention_tolerance(mode, variant):
            bad.append("attention_factor %r, expected %r (rel %.3g)" % (a_got, a_ref, e))
    return bad


def main(argv):
    if len(argv) != 6:
        sys.stderr.write("usage: compare_freqs.py MODE VARIANT METHOD ROPELAB_CSV REF_CSV LABEL\n")
        return 2
    mode, variant, method, got_path, ref_path, label = argv
    try:
        bad = compare(mode, variant, method, got_path, ref_path)
    except (OSError, ValueError, KeyError) as e:
        bad = ["unreadable output: %s" % e]
    if bad:
        print("not ok %s: %s%s" % (label, bad[0], " (+%d more)" % (len(bad) - 1) if len(bad) > 1 else ""))
        return 1
    print("ok %s" % label)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
