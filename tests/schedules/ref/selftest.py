#!/usr/bin/env python3
"""selftest.py: tests of the schedule reference itself.

1. every published number in published.txt (P1..P8);
2. structural identities (linear = rope / s, vLLM dynamic = rope, ...);
3. the float32 pipeline of every variant stays within compare_freqs.py's f32
   tolerance of the exact evaluation, over the compare.sh grid; this is the
   error budget compare.sh relies on.

Prints TAP-like `ok` / `not ok` lines and a summary; exit 1 on any failure.
"""

import math
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import compare_freqs  # noqa: E402
import ref_schedules  # noqa: E402

failures = 0
count = 0


def check(cond, label, detail=""):
    global failures, count
    count += 1
    if cond:
        print("ok %d %s" % (count, label))
    else:
        failures += 1
        print("not ok %d %s%s" % (count, label, (": " + detail) if detail else ""))


def run(*argv):
    a = ref_schedules.parse_args([str(x) for x in argv])
    rows, att, meta, extra = ref_schedules.compute(a)
    return [float(r[1]) for r in rows], att, meta, [r[2] for r in rows] if extra else None


def rel(a, b):
    return 0.0 if a == b else abs(a - b) / max(abs(a), abs(b))


def factors_file(n, seed=1.0):
    """Deterministic LongRoPE factors: short near 1, long rising to ~s."""
    fd, path = tempfile.mkstemp(prefix="ref_factors_", suffix=".csv")
    with os.fdopen(fd, "w") as fh:
        fh.write("pair,short,long\n")
        for i in range(n):
            fh.write("%d,%r,%r\n" % (i, 1.0 + 0.0125 * i / n * seed, 1.0 + 31.0 * (i / (n - 1)) ** 2))
    return path


def published():
    # P1 YaRN attention factor at s = 8
    for v in ("hf", "vllm", "ggml"):
        _, att, _, _ = run("--method", "yarn", "--variant", v, "--dim", 128, "--base", "1e4",
                           "--factor", 8, "--train-len", 4096)
        check(rel(att, 1.2079441541679836) <= 1e-15, "P1 yarn attention 0.1 ln 8 + 1 (%s exact)" % v, repr(att))
        check(abs(att - 1.2079442) < 5e-8, "P1 yarn attention = 1.2079442 to 7 decimals (%s)" % v)
    _, att, _, _ = run("--method", "yarn", "--variant", "ggml", "--dim", 128, "--base", "1e4",
                       "--factor", 8, "--train-len", 4096, "--precision", "f32")
    check(abs(att - 1.2079442) < 1e-6, "P1 yarn attention ggml float32 chain", repr(att))

    # P2 NTK-aware base
    th, _, _, _ = run("--method", "ntk", "--variant", "hf", "--dim", 128, "--base", "1e4", "--factor", 2)
    bprime = th[1] ** -64
    check(rel(bprime, 10000 * 2 ** (128 / 126)) < 1e-13, "P2 ntk base recovered from theta_1", repr(bprime))
    check(abs(bprime - 20221.26) < 0.005, "P2 ntk base = 20221.26", repr(bprime))
    check(rel(th[63], 1e4 ** (-126 / 128) / 2) < 4e-16, "P2 ntk last pair = theta_63 / s", repr(th[63]))
    check(all(rel(t * bprime ** (2 * i / 128), 1.0) < 1e-13 for i, t in enumerate(th)),
          "P2 every pair is base'^(-2i/d)")

    # P3 Llama 2 YaRN correction range
    for v in ("hf", "vllm", "ggml"):
        _, _, meta, _ = run("--method", "yarn", "--variant", v, "--dim", 128, "--base", "1e4",
                            "--factor", 16, "--train-len", 4096)
        lo, hi = float(meta["corr_low_raw"]), float(meta["corr_high_raw"])
        check(abs(lo - 20.94) < 0.005 and abs(hi - 45.03) < 0.005,
              "P3 raw correction range 20.94 .. 45.03 (%s)" % v, "%r %r" % (lo, hi))
        check(meta["corr_low"] == "20.0" and meta["corr_high"] == "46.0",
              "P3 rounded correction range 20 .. 46 (%s)" % v)
        _, _, meta, _ = run("--method", "yarn", "--variant", v, "--dim", 128, "--base", "1e4",
                            "--factor", 16, "--train-len", 4096, "--precision", "f32")
        check(meta["corr_low"] == "20.0" and meta["corr_high"] == "46.0",
              "P3 rounded correction range 20 .. 46 (%s float32)" % v)
    _, _, meta, _ = run("--method", "yarn", "--variant", "hf", "--dim", 128, "--base", "1e4",
                        "--factor", 16, "--train-len", 4096, "--truncate", "no")
    check(meta["corr_low"] == meta["corr_low_raw"], "P3 truncate=no keeps 20.94")

    # P4 Llama 3.1
    hand = {0: 1.0, 28: 0.0032114460, 30: 0.0013718936, 32: 0.00052484616, 63: 3.0689260e-07}
    for v in ("hf", "vllm", "ggml"):
        for prec in ("exact", "f32"):
            th, att, meta, _ = run("--method", "llama3", "--variant", v, "--dim", 128, "--base", "5e5",
                                   "--factor", 8, "--train-len", 8192, "--precision", prec)
            if prec == "exact":
                check(meta["bands"] == "high:0-28;mid:29-34;low:35-63", "P4 llama3 bands (%s)" % v, meta["bands"])
                check(meta["low_freq_wavelen"] == "8192.0" and meta["high_freq_wavelen"] == "2048.0",
                      "P4 llama3 thresholds 8192 / 2048 (%s)" % v)
            # hand values carry 8 significant digits; the float32 pipelines add their own error
            ok = all(rel(th[i], x) < 5e-8 + (compare_freqs.theta_tolerance("f32", v, "llama3", i, x)
                                              if prec == "f32" else 0.0) for i, x in hand.items())
            check(ok, "P4 llama3 hand-derived frequencies (%s %s)" % (v, prec),
                  " ".join("%d:%r" % (i, th[i]) for i in hand))
            check(att == 1.0, "P4 llama3 attention 1 (%s %s)" % (v, prec))
    th, _, _, _ = run("--method", "llama3", "--dim", 128, "--base", "5e5", "--factor", 8, "--train-len", 8192)
    check(repr(th[32]) == "0.0005248461609929547", "P4 pair 32 exact", repr(th[32]))
    check(repr(th[63]) == "3.068925988914511e-07", "P4 pair 63 exact", repr(th[63]))

    # P5 LongRoPE attention (Phi-3-mini-128k: L 4096, s 32)
    path = factors_file(48)
    try:
        for v in ("hf", "vllm", "ggml"):
            _, att, _, _ = run("--method", "longrope", "--variant", v, "--dim", 96, "--base", "1e4",
                               "--factor", 32, "--train-len", 4096, "--factors", path)
            check(rel(att, math.sqrt(1 + 5 / 12)) < 1e-15, "P5 longrope attention sqrt(1 + 5/12) (%s)" % v, repr(att))
    finally:
        os.unlink(path)

    # P6 RoFormer
    th, att, _, _ = run("--method", "rope", "--dim", 128, "--base", "1e4")
    check(repr(th[1]) == "0.8659643233600653" and rel(th[63], 1.1547819846894582e-04) < 2.3e-16,
          "P6 rope theta_1, theta_63", "%r %r" % (th[1], th[63]))

    # P7 xPos
    _, _, _, zeta = run("--method", "xpos", "--dim", 128, "--base", "1e4")
    check(zeta[0] == repr(2 / 7) and zeta[63] == "0.9888392857142857", "P7 xpos zeta_0, zeta_63",
          "%s %s" % (zeta[0], zeta[63]))

    # P8 p-RoPE
    th, _, meta, _ = run("--method", "p-rope", "--dim", 128, "--base", "1e4", "--fraction", "0.75")
    full, _, _, _ = run("--method", "rope", "--dim", 128, "--base", "1e4")
    check(meta["kept_pairs"] == "48" and th[:48] == full[:48] and all(t == 0.0 for t in th[48:]),
          "P8 p-rope 0.75 keeps the 48 highest frequencies")


def identities():
    rope, _, _, _ = run("--method", "rope", "--dim", 64, "--base", "5e5")
    lin, _, _, _ = run("--method", "linear", "--dim", 64, "--base", "5e5", "--factor", 16)
    check(all(rel(a / 16, b) <= 2 ** -53 for a, b in zip(rope, lin)), "linear = rope / s")
    dyn, _, meta, _ = run("--method", "dynamic", "--variant", "vllm", "--dim", 64, "--base", "5e5",
                          "--factor", 8, "--train-len", 4096)
    check(dyn == rope, "vllm dynamic = plain rope (bracket is 1)", meta.get("base_effective", ""))
    dyn, _, _, _ = run("--method", "dynamic", "--variant", "hf", "--dim", 64, "--base", "5e5",
                       "--factor", 8, "--train-len", 4096, "--seq-len", 4096)
    check(dyn == rope, "hf dynamic at N = L = plain rope")
    dyn, _, meta, _ = run("--method", "dynamic", "--variant", "hf", "--dim", 64, "--base", "5e5",
                          "--factor", 8, "--train-len", 4096, "--seq-len", 8192)
    want = 5e5 * 9 ** (64 / 62)
    check(rel(float(meta["base_effective"]), want) < 1e-14, "hf dynamic at N = 2L: base 5e5 (8*2 - 7)^(d/(d-2))")
    hfn, _, _, _ = run("--method", "ntk", "--variant", "hf", "--dim", 64, "--base", "1e4", "--factor", 8)
    vln, _, _, _ = run("--method", "ntk", "--variant", "vllm", "--dim", 64, "--base", "1e4", "--factor", 8)
    check(hfn[0] == 1.0 and rel(vln[0], 8 ** (-2 / 64)) < 4e-16, "ntk pair 0: hf unchanged, vllm / s^(2/d)")
    check(rel(hfn[31], vln[31]) < 4e-16, "ntk last pair agrees (theta / s) in hf and vllm")
    y, _, _, _ = run("--method", "yarn", "--dim", 128, "--base", "1e4", "--factor", 8, "--train-len", 4096)
    r, _, _, _ = run("--method", "rope", "--dim", 128, "--base", "1e4")
    check(y[:21] == r[:21] and all(rel(a, b / 8) <= 2 ** -52 for a, b in zip(y[46:], r[46:])),
          "yarn keeps pairs <= 20, divides pairs >= 46 by s")
    yp, _, _, _ = run("--method", "yarn", "--dim", 128, "--base", "1e4", "--factor", 8, "--train-len", 4096,
                      "--ramp", "paper")
    check(any(rel(a, b) > 1e-3 for a, b in zip(y, yp)), "paper ramp (linear in r) differs from code ramp")
    _, att, _, _ = run("--method", "yarn", "--dim", 128, "--base", "1e4", "--factor", 40, "--train-len", 4096,
                       "--mscale", "0.707", "--mscale-all-dim", "0.707")
    check(att == 1.0, "yarn mscale == mscale_all_dim gives attention 1 (hf)")
    _, att, _, _ = run("--method", "yarn", "--variant", "ggml", "--dim", 128, "--base", "1e4", "--factor", 40,
                       "--train-len", 4096, "--mscale", "0.707", "--mscale-all-dim", "0.707")
    want = (0.1 * math.log(40) + 1) / (0.0707 * math.log(40) + 1)
    check(rel(att, want) < 1e-15, "yarn ggml reads only mscale_all_dim (mscale := 1)", repr(att))
    _, att, _, _ = run("--method", "log-n", "--dim", 64, "--base", "1e4", "--train-len", 4096, "--seq-len", 16384)
    check(rel(att, math.log(16384) / math.log(4096)) < 1e-15, "log-n attention ln N / ln L")
    _, _, _, axes = run("--method", "mrope", "--dim", 128, "--base", "1e4", "--sections", "16,24,24")
    check(axes[15] == "t" and axes[16] == "h" and axes[39] == "h" and axes[40] == "w" and axes[63] == "w",
          "mrope sections 16,24,24 -> t 0-15, h 16-39, w 40-63")


def f32_budget():
    """The float32 pipeline vs the exact evaluation, within compare_freqs' f32 tolerance."""
    path64, path128 = factors_file(32), factors_file(64)
    cases = []
    for d in (64, 128):
        for b in ("1e4", "5e5"):
            cases.append(("rope", ("hf", "vllm", "ggml"), [], d, b))
            cases.append(("p-rope", ("hf", "vllm", "ggml"), ["--fraction", "0.25"], d, b))
            for s in ("2", "8", "16"):
                cases.append(("linear", ("hf", "vllm", "ggml"), ["--factor", s], d, b))
                cases.append(("ntk", ("hf", "vllm", "ggml"), ["--factor", s], d, b))
                for L in ("2048", "4096", "8192"):
                    cases.append(("dynamic", ("hf", "vllm"), ["--factor", s, "--train-len", L,
                                                             "--seq-len", str(2 * int(L))], d, b))
                    cases.append(("yarn", ("hf", "vllm", "ggml"), ["--factor", s, "--train-len", L], d, b))
                    cases.append(("llama3", ("hf", "vllm", "ggml"), ["--factor", s, "--train-len", L], d, b))
                    for n in (L, str(2 * int(L))):
                        cases.append(("longrope", ("hf", "vllm", "ggml"),
                                      ["--factor", s, "--train-len", L, "--seq-len", n,
                                       "--factors", path64 if d == 64 else path128], d, b))
    worst = {}
    bad = []
    try:
        for method, variants, extra, d, b in cases:
            for v in variants:
                common = ["--method", method, "--variant", v, "--dim", d, "--base", b] + extra
                ex, _, mex, _ = run(*common)
                fl, _, mfl, _ = run(*(common + ["--precision", "f32"]))
                for i, (a, c) in enumerate(zip(ex, fl)):
                    if a == 0.0 or c == 0.0:
                        if a != c:
                            bad.append("%s %s d%d b%s %s pair %d: zero mismatch" % (method, v, d, b, extra, i))
                        continue
                    tol = compare_freqs.theta_tolerance("f32", v, method, i, a)
                    e = rel(a, c)
                    key = (method, v)
                    worst[key] = max(worst.get(key, 0.0), e / tol)
                    if e > tol:
                        bad.append("%s %s d%d b%s %s pair %d: rel %.3g > %.3g" % (method, v, d, b, " ".join(extra), i, e, tol))
    finally:
        os.unlink(path64)
        os.unlink(path128)
    check(not bad, "float32 pipelines within the f32 tolerance over the grid (%d cases)" % len(cases),
          "; ".join(bad[:3]) + (" (+%d)" % (len(bad) - 3) if len(bad) > 3 else ""))
    for key in sorted(worst):
        print("# worst error / tolerance, %s %s: %.3f" % (key[0], key[1], worst[key]))


def double_budget():
    """A plain double evaluation, as a C implementation would do it, stays
    within compare_freqs' exact tolerance of the exact evaluation."""
    worst, bad, n = 0.0, [], 0
    for d in (64, 128):
        for b in (1e4, 5e5):
            rope = [math.pow(b, -2.0 * i / d) for i in range(d // 2)]
            alt = [math.exp(-2.0 * i / d * math.log(b)) for i in range(d // 2)]
            for s in (2.0, 8.0, 16.0):
                for L in (2048, 4096, 8192):
                    lo = math.floor(d * math.log(L / (32 * 2 * math.pi)) / (2 * math.log(b)))
                    hi = math.ceil(d * math.log(L / (1 * 2 * math.pi)) / (2 * math.log(b)))
                    lo, hi = max(lo, 0), min(hi, d - 1)
                    yarn = []
                    for i, t in enumerate(rope):
                        ramp = min(1.0, max(0.0, (i - lo) / max(hi - lo, 0.001)))
                        yarn.append(t / s * ramp + t * (1 - ramp))
                    l3 = []
                    for t in alt:
                        wl = 2 * math.pi / t
                        if wl < L / 4:
                            l3.append(t)
                        elif wl > L:
                            l3.append(t / s)
                        else:
                            sm = (L / wl - 1) / 3
                            l3.append((1 - sm) * t / s + sm * t)
                    for method, vals, extra in (("rope", rope, []), ("rope", alt, []),
                                                ("yarn", yarn, ["--factor", s, "--train-len", L]),
                                                ("llama3", l3, ["--factor", s, "--train-len", L])):
                        ex, _, _, _ = run("--method", method, "--dim", d, "--base", b, *extra)
                        for i, (a, c) in enumerate(zip(ex, vals)):
                            n += 1
                            tol = compare_freqs.theta_tolerance("exact", "hf", method, i, a, s)
                            e = rel(a, c)
                            worst = max(worst, e / tol)
                            if e > tol:
                                bad.append("%s d%d b%g s%g L%d pair %d rel %.3g > %.3g" % (method, d, b, s, L, i, e, tol))
    check(not bad, "plain double evaluation within the exact tolerance (%d values)" % n, "; ".join(bad[:3]))
    print("# worst error / tolerance, double evaluation: %.3f" % worst)


def main():
    published()
    identities()
    double_budget()
    f32_budget()
    print("# %d checks, %d failed" % (count, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
