#!/usr/bin/env python3
"""report_numpy.py: the numbers of a `ropelab report` page recomputed by
independent numpy, from the config alone.

usage: report_numpy.py CONFIG FOLDER [MODEL]

CONFIG is the config.json the report read, FOLDER the page's folder (its
summary.csv and tables), MODEL the model's name in summary.csv (default:
its first).  Prints one line per number, "ok KEY" or "differ KEY: page X
numpy Y (tolerance T)", then "N checked, N differ"; exit 1 when any differs.

Nothing here comes from ropelab: the config is read as transformers reads
it (modeling_rope_utils.py: head_dim or hidden_size / num_attention_heads,
partial_rotary_factor, rope_theta, rope_scaling's rope_type or type,
factor, original_max_position_embeddings, low/high_freq_factor,
beta_fast/slow; max_position_embeddings the context C), the frequencies
come from the repository's independent reference (tests/schedules/ref/
ref_schedules.py, decimal arithmetic; its float32 mode for transformers'
float32 inv_freq), and every measure is written here from its paper:

  pairs turning   n theta_i / (2 pi) >= 1, n = L and C
  B_r             sum_i cos(r theta_i) (Men et al. 2024, eq. 9), its first
                  negative r below C; at r = L and r = C times the logit
                  multiplier (the attention factor squared), as `decay`
                  documents its measures of a method's logit
  bound           RoFormer sec. 3.4.3: (1/n) sum_{j=1..n} |S_j|, S_j =
                  sum_{k<j} e^{i r theta_k}, n = rot/2, at r = L and C,
                  times the logit multiplier
  unseen          the fraction of a causal sequence's query-key pairs (a
                  distance m occurs n - m times) in which some pair's angle
                  m theta'_p mod 2 pi lies past the arc (L-1) theta_p it
                  swept in training (theta the method at factor 1, plain
                  RoPE), for pairs whose arc is shorter than 2 pi
  cos/sin error   transformers' float32 pipeline: the float32 inv_freq
                  times the float32 position, rounded to float32, its
                  float32 cos and sin (numpy's); bfloat16: those rounded to
                  nearest even bfloat16; against cos(m theta) in double;
                  the largest over every position 0..n and pair (the
                  rotation's error, before the attention factor, as
                  `precision` measures it)
  Men's base      at the stated smallest base, B_r >= 0 for every r < C;
                  at the grid point before it (previous_base), B_r < 0 at
                  the stated previous_first_fail

Tolerances: counts and distances exactly; B_r and the bound 1e-9 absolute
(64 cosines of arguments up to 2^19 rad, each argument rounded once in
double: 2^19 * 2^-53 = 6e-11 rad each); unseen 1e-9 (a count over n(n+1)/2
pairs in double; a distance whose angle lands within 1e-11 rad of an arc's
end could flip, which would show as a difference of (n - m) / (n(n+1)/2));
float32 errors 4 float32 ulps of 1 (2.4e-7): numpy's float32 cos and
glibc's cosf differ by at most 1-2 ulp, the angle's rounding is the same
IEEE product in both; bfloat16 errors the same plus one bfloat16 half-ulp
(2^-9) where numpy's and glibc's float32 cos sit on either side of a
bfloat16 rounding boundary.
"""

import csv
import json
import math
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REF = os.path.join(HERE, "..", "schedules", "ref", "ref_schedules.py")
U32 = 2.0 ** -24


def read_config(path):
    with open(path) as f:
        c = json.load(f)
    if "text_config" in c and "rope_theta" not in c:
        c = dict(c["text_config"], **{k: v for k, v in c.items() if k != "text_config"})
    hd = c.get("head_dim") or c["hidden_size"] // c["num_attention_heads"]
    prf = c.get("partial_rotary_factor", c.get("rotary_pct", 1.0))
    rot = int(hd * prf)
    rot -= rot % 2
    base = c.get("rope_theta", 10000.0)
    sc = c.get("rope_scaling") or {}
    method = sc.get("rope_type", sc.get("type", "default"))
    method = {"default": "rope"}.get(method, method)
    C = float(c["max_position_embeddings"])
    args = ["--method", method, "--dim", str(hd), "--rot", str(rot), "--base", repr(base)]
    L = C
    if method in ("linear", "dynamic", "yarn", "llama3", "ntk"):
        args += ["--factor", repr(float(sc["factor"]))]
    if method == "llama3":
        L = float(sc["original_max_position_embeddings"])
        args += ["--low-freq-factor", repr(float(sc.get("low_freq_factor", 1))),
                 "--high-freq-factor", repr(float(sc.get("high_freq_factor", 4)))]
    if method == "yarn":
        L = float(sc.get("original_max_position_embeddings") or C)
        args += ["--beta-fast", repr(float(sc.get("beta_fast", 32))),
                 "--beta-slow", repr(float(sc.get("beta_slow", 1)))]
    if method in ("yarn", "llama3", "dynamic"):
        args += ["--train-len", "%d" % L]
    if method not in ("rope", "linear", "yarn", "llama3"):
        return None
    return {"dim": hd, "rot": rot, "base": base, "method": method, "L": L, "C": C,
            "args": args}


def ref(args, precision):
    out = subprocess.run([sys.executable, REF] + args + ["--precision", precision],
                         check=True, capture_output=True, text=True).stdout
    theta, meta = [], {}
    for line in out.splitlines():
        if line.startswith("#"):
            k, _, v = line[2:].partition("=")
            meta[k] = v
        elif line and line[0].isdigit():
            theta.append(float(line.split(",")[1]))
    return np.array(theta), meta


def similarity(theta, r):
    r = np.asarray(r, dtype=np.float64)
    out = np.empty(r.shape)
    for s in range(0, r.size, 4096):
        out[s:s + 4096] = np.cos(np.outer(r[s:s + 4096], theta)).sum(axis=1)
    return out


def bound(theta, r):
    z = np.exp(1j * r * theta)
    S = np.cumsum(z)  # S_1 .. S_n
    return np.abs(S).sum() / theta.size


def unseen(theta_eval, theta_train, L, n):
    arc = (L - 1) * theta_train
    live = arc < 2 * math.pi
    if not live.any() or n <= L:
        return 0.0
    te, lim = theta_eval[live], arc[live] * (1 + 1e-12)
    bad_w = 0.0
    for s in range(0, n, 8192):
        m = np.arange(s, min(n, s + 8192), dtype=np.float64)
        a = np.fmod(np.outer(m, te), 2 * math.pi)
        bad = (a > lim).any(axis=1)
        bad_w += ((n - m) * bad).sum()
    return bad_w / (n * (n + 1) / 2)


def bf16(x):
    """float32 array to bfloat16 (round to nearest even), as float32."""
    u = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000
    return u.astype(np.uint32).view(np.float32)


def cos_sin_err(th32, theta, af, n):
    """largest |cos| and |sin| errors of hf-fp32 and hf-bf16 over 0..n"""
    af32 = np.float32(af)
    worst = {"fp32": [0.0, 0.0], "bf16": [0.0, 0.0]}
    for s in range(0, int(n) + 1, 4096):
        m = np.arange(s, min(int(n) + 1, s + 4096))
        ang32 = (m.astype(np.float32)[:, None] * th32[None, :]).astype(np.float32)
        c32 = (np.cos(ang32) * af32).astype(np.float32)
        s32 = (np.sin(ang32) * af32).astype(np.float32)
        ang = m.astype(np.float64)[:, None] * theta[None, :]
        c, sn = np.cos(ang) * af, np.sin(ang) * af
        for k, (cc, ss) in (("fp32", (c32, s32)), ("bf16", (bf16(c32), bf16(s32)))):
            worst[k][0] = max(worst[k][0], float(np.abs(cc.astype(np.float64) - c).max()))
            worst[k][1] = max(worst[k][1], float(np.abs(ss.astype(np.float64) - sn).max()))
    return worst


class Checker:
    def __init__(self):
        self.n = self.bad = 0

    def num(self, key, page, want, tol):
        self.n += 1
        try:
            got = float(page)
        except (TypeError, ValueError):
            got = float("nan")
        if abs(got - want) <= tol:
            print("ok %s" % key)
        else:
            self.bad += 1
            print("differ %s: page %s numpy %r (tolerance %g)" % (key, page, want, tol))

    def text(self, key, page, want):
        self.n += 1
        if page == want:
            print("ok %s" % key)
        else:
            self.bad += 1
            print("differ %s: page %s numpy %s" % (key, page, want))


def table(path):
    with open(path) as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith("#")]
    return [dict(zip(rows[0], r)) for r in rows[1:]]


def main():
    cfg, folder = sys.argv[1], sys.argv[2]
    summary = table(os.path.join(folder, "summary.csv"))
    model = sys.argv[3] if len(sys.argv) > 3 else summary[0]["model"]
    page = {r["key"]: r["value"] for r in summary if r["model"] == model}
    pfx = "" if len({r["model"] for r in summary}) == 1 else (
        "a-" if model == summary[0]["model"] else "b-")
    c = read_config(cfg)
    if c is None:
        print("skip: a method this check does not implement")
        return 0
    L, C = c["L"], c["C"]
    theta, meta = ref(c["args"], "exact")
    th32 = ref(c["args"] + ["--variant", "hf"], "f32")[0].astype(np.float32)
    af = float(meta["attention_factor"])
    plain = ref(["--method", "rope", "--dim", str(c["dim"]), "--rot", str(c["rot"]),
                 "--base", repr(c["base"])], "exact")[0]
    k = Checker()
    # the lengths the page states numbers for: L and C, or C once when L = C
    at = ((L, "train_len"), (C, "context")) if L != C else ((C, "context"),)
    k.num("train_len", page["train_len"], L, 0)
    k.num("context_len", page["context_len"], C, 0)
    k.num("attention_factor", page["attention_factor"], af, 1e-15 * af)
    for n, key in at:
        turned = int((n * theta / (2 * math.pi) >= 1).sum())
        k.num("pairs_turning_within_" + key, page["pairs_turning_within_" + key], turned, 0)
    r = np.arange(1, int(C))
    B = similarity(theta, r)
    neg = np.nonzero(B < 0)[0]
    ff = str(int(r[neg[0]])) if neg.size else ""
    k.text("men_first_fail_within_context", page.get("men_first_fail_within_context", ""), ff)
    for n, key in at:
        k.num("decay_similarity_at_" + key, page["decay_similarity_at_" + key],
              af * af * float(similarity(theta, [n])[0]), 1e-9)
        k.num("decay_bound_at_" + key, page["decay_bound_at_" + key],
              af * af * bound(theta, n), 1e-9)
    for mult, key in ((1, "context"), (2, "2x_context"), (4, "4x_context")):
        k.num("unseen_at_" + key, page["unseen_at_" + key],
              unseen(theta, plain, int(L), int(mult * C)), 1e-9)
    for n, key in at:
        w = cos_sin_err(th32, theta, 1.0, n)
        for pipe in ("fp32", "bf16"):
            tol = 4 * U32 * 2 + (0 if pipe == "fp32" else 2.0 ** -9)
            for q, col in ((0, "cos_err"), (1, "sin_err")):
                name = "hf-%s_worst_%s_to_%s" % (pipe, col, key)
                k.num(name, page[name], w[pipe][q], tol)
    # Men's smallest base for C (plain RoPE with the model's d and rot)
    ms = table(os.path.join(folder, pfx + "men-search.csv"))
    if ms and page.get("men_smallest_base_for_context"):
        b, pb = float(ms[0]["base"]), float(ms[0]["previous_base"])
        pf = int(ms[0]["previous_first_fail"])
        th_b = ref(["--method", "rope", "--dim", str(c["dim"]), "--rot", str(c["rot"]),
                    "--base", repr(b)], "exact")[0]
        th_p = ref(["--method", "rope", "--dim", str(c["dim"]), "--rot", str(c["rot"]),
                    "--base", repr(pb)], "exact")[0]
        k.text("men_smallest_base_holds", "yes" if similarity(th_b, r).min() >= 0 else "no",
               "yes")
        k.text("men_previous_base_fails_there",
               "yes" if similarity(th_p, [pf])[0] < 0 else "no", "yes")
    print("%d checked, %d differ" % (k.n, k.bad))
    return 1 if k.bad else 0


if __name__ == "__main__":
    sys.exit(main())
