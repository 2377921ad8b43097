#!/usr/bin/python3
# profile_ref.py: `ropelab profile --checkpoint F` recomputed from the
# checkpoint's bytes alone, by code that shares nothing with ropelab
# (the format from src/core/train/checkpoint.md through ckpt_read.py; the
# model from src/ropelab/train.h's description; T5's bucket after Raffel
# et al. 2020 and transformers' _relative_position_bucket, read, not
# copied), then compared with ropelab's table:
#   profile_ref.py t5 CKPT TABLE    every head and distance: the bias of
#                                   bucket(distance), equal to the bit
#   profile_ref.py rope CKPT TABLE  layer 0's mean query and key norm per
#                                   head and rotation pair over the same
#                                   examples (SplitMix64, copy's examples
#                                   from BOS), within 1e-12 relative
#   profile_ref.py logit CKPT TABLE (--measure logit; rope, nope, alibi, t5 on
#                                   copy) every layer's mean attention logit
#                                   per head and distance and its standard
#                                   error over the same examples, from a
#                                   whole forward in numpy (train.h's model:
#                                   pre-norm layers, GPT-2's tanh GELU), the
#                                   rotation applied in its relative form
#                                   q_i . R((j - i) theta) k_j rather than
#                                   as ropelab's two absolute turns; rope's
#                                   logit_norot too (see tolerance())
# Prints one line per check; exit 1 on a mismatch.
import math
import os
import struct
import sys

import ckpt_read


def conf(secs):
    out = {}
    for i, k in enumerate(ckpt_read.CONF):
        fmt = "<d" if k.startswith("f64") else "<Q"
        out[k.split()[-1]] = struct.unpack_from(fmt, secs["CONF"], 8 * i)[0]
    return out


def table(path):
    rows = []
    for line in open(path):
        if line.startswith("#") or line[0].isalpha():
            continue
        rows.append([float(x) for x in line.split(",")])
    return rows


def t5_bucket(dist, nb, maxd):
    # causal (unidirectional): a key dist >= 0 positions before the query;
    # half the buckets exact, the rest logarithmic up to max_distance
    exact = nb // 2
    if dist < exact:
        return dist
    b = exact + int(math.log(dist / exact) / math.log(maxd / exact) * (nb - exact))
    return min(b, nb - 1)


class SplitMix64:
    def __init__(self, seed):
        self.s = seed

    def u64(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) % 2**64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
        return z ^ (z >> 31)

    def below(self, n):
        lim = (2**64 - 1) - (2**64 - 1) % n
        while True:
            x = self.u64()
            if x < lim:
                return x % n


def texts(sec):
    return dict(l.split("=", 1) for l in sec.decode().splitlines() if l)


def meta(tab, key):
    return [l.split("=", 1)[1].strip() for l in open(tab) if l.startswith("# %s=" % key)][0]


U = 2.0 ** -53  # float64's unit roundoff


def tolerance(scale, c, T, samples, layer):
    # A sum of n float64 terms is within n u of its exact value relative
    # to the sum of the terms' magnitudes (Higham, "Accuracy and Stability
    # of Numerical Algorithms", sec. 3.1).  A logit's terms pass through
    # the qkv product (D terms), the head's dot (hd terms), the average
    # over at most T queries and over the samples; each layer before it
    # adds its own such chains (attention over T keys, the MLP's 4D and
    # D terms), so the bound grows by that per layer.  scale: the mean of
    # |q_i| |k_j| / sqrt(hd) over the pairs averaged, which bounds the
    # magnitudes summed (Cauchy-Schwarz), plus |bias| (alibi, t5), the
    # last term added; 8: the few ulp of LayerNorm's
    # 1/sqrt, the cos/sin (numpy's cos((j - i) theta) against ropelab's
    # table of each position's angle), exp and tanh, rounded up.
    D, hd = c["d_model"], c["d_model"] // c["heads"]
    chain = D + hd + T + samples + layer * (T + 4 * D + D + D)
    return 8 * chain * U * scale


def logit_ref(ck, tab):
    import numpy as np
    _, secs = ckpt_read.read(ck)
    c, name = conf(secs), texts(secs["NAME"])
    scheme = name["scheme"]
    if name["task"] != "copy" or scheme not in ("rope", "nope", "alibi", "t5"):
        print("logit: scheme %s on %s is not what this reference recomputes" % (scheme,
                                                                                name["task"]))
        return 1
    V, D, H, L, sym, n = c["vocab"], c["d_model"], c["heads"], c["layers"], c["symbols"], \
        c["train_len"]
    hd, T = D // H, 2 * c["train_len"] + 1
    P = np.frombuffer(secs["PARM"], dtype="<f8")
    at = [0]

    def take(*shape):
        k = int(np.prod(shape))
        x = P[at[0]:at[0] + k].reshape(shape)
        at[0] += k
        return x
    # checkpoint.md's PARM: rope, nope and alibi have no position table
    wte = take(V, D)
    ln1w, ln1b, qkvw, qkvb = take(L, D), take(L, D), take(L, 3 * D, D), take(L, 3 * D)
    apw, apb, ln2w, ln2b = take(L, D, D), take(L, D), take(L, D), take(L, D)
    fcw, fcb, fpw, fpb = take(L, 4 * D, D), take(L, 4 * D), take(L, D, 4 * D), take(L, D)
    nb = c["num_buckets"] if scheme == "t5" else 0
    if at[0] + 2 * D + nb * H != len(P):
        print("logit: %d parameters, %d expected" % (len(P), at[0] + 2 * D + nb * H))
        return 1
    t5 = P[len(P) - nb * H:].reshape(nb, H) if nb else None          # [bucket][head]
    rot = None
    if scheme == "rope":
        rp = texts(secs["ROPE"])
        if rp["method"] != "rope" or int(rp["rot"]) != hd or int(rp["dim"]) != hd:
            print("logit: rope schedule %r is not plain rope over the whole head" % rp)
            return 1
        theta = float(rp["base"]) ** (-2.0 * np.arange(hd // 2) / hd)
        if rp["layout"] == "interleaved":
            ia, ib = 2 * np.arange(hd // 2), 2 * np.arange(hd // 2) + 1
        else:
            ia, ib = np.arange(hd // 2), np.arange(hd // 2) + hd // 2
        i_j = np.arange(T)[:, None] - np.arange(T)[None, :]          # i - j
        phi = -i_j[:, :, None] * theta[None, None, :]                # (j - i) theta
        rot = (np.cos(phi), np.sin(phi), ia, ib)
    slopes = 2.0 ** (-8.0 * np.arange(1, H + 1) / H)                 # H a power of two
    causal = np.tril(np.ones((T, T), dtype=bool))
    dist = np.arange(T)[:, None] - np.arange(T)[None, :]
    if nb:
        bucket = np.array([[t5_bucket(max(int(d), 0), nb, c["max_distance"]) for d in row]
                           for row in dist])

    def ln(x, w, b):
        m = x.mean(axis=1, keepdims=True)
        v = ((x - m) ** 2).mean(axis=1, keepdims=True)
        return (x - m) / np.sqrt(v + 1e-5) * w + b

    def by_dist(S):  # mean over queries i >= r of S[i, i - r], r = 0..T-1
        return np.array([np.diagonal(S, -r).mean() for r in range(T)])

    samples, seed = int(meta(tab, "samples")), int(meta(tab, "eval_seed"))
    rng = SplitMix64(seed)
    lg = np.zeros((samples, L, H, T))
    nr = np.zeros((samples, L, H, T))
    sc = np.zeros((samples, L, H, T))
    for s in range(samples):
        xs = [rng.below(sym) for _ in range(n)]
        x = wte[[sym + 1] + xs + [sym] + xs[:-1]]                     # BOS, x, SEP, x less its last
        for l in range(L):
            qkv = ln(x, ln1w[l], ln1b[l]) @ qkvw[l].T + qkvb[l]
            out = np.zeros((T, D))
            for h in range(H):
                q, k = qkv[:, h * hd:(h + 1) * hd], qkv[:, D + h * hd:D + (h + 1) * hd]
                v = qkv[:, 2 * D + h * hd:2 * D + (h + 1) * hd]
                plain = q @ k.T / np.sqrt(hd)
                if rot:
                    cs, sn, ia, ib = rot
                    # q^T R(phi) k per pair: cos (qa ka + qb kb) + sin (qb ka - qa kb)
                    qa, qb, ka, kb = q[:, ia], q[:, ib], k[:, ia], k[:, ib]
                    S = (np.einsum("ijp,ip,jp->ij", cs, qa, ka) +
                         np.einsum("ijp,ip,jp->ij", cs, qb, kb) +
                         np.einsum("ijp,ip,jp->ij", sn, qb, ka) -
                         np.einsum("ijp,ip,jp->ij", sn, qa, kb)) / np.sqrt(hd)
                else:
                    S = plain.copy()
                bias = np.zeros((T, T))
                if scheme == "alibi":
                    bias = -slopes[h] * dist
                if nb:
                    bias = t5[bucket, h]
                S = S + bias
                lg[s, l, h], nr[s, l, h] = by_dist(S), by_dist(plain)
                nq = np.linalg.norm(q, axis=1)
                sc[s, l, h] = by_dist(np.outer(nq, np.linalg.norm(k, axis=1)) / np.sqrt(hd) +
                                      np.abs(bias))
                S = np.where(causal, S, -np.inf)
                a = np.exp(S - S.max(axis=1, keepdims=True))
                a /= a.sum(axis=1, keepdims=True)
                out[:, h * hd:(h + 1) * hd] = a @ v
            x = x + out @ apw[l].T + apb[l]
            f = ln(x, ln2w[l], ln2b[l]) @ fcw[l].T + fcb[l]
            g = 0.5 * f * (1 + np.tanh(np.sqrt(2 / np.pi) * (f + 0.044715 * f ** 3)))
            x = x + g @ fpw[l].T + fpb[l]
    want = {"logit": (lg.mean(0), lg.std(0, ddof=1) / np.sqrt(samples)),
            "logit_norot": (nr.mean(0), nr.std(0, ddof=1) / np.sqrt(samples))}
    scale = sc.mean(0)
    head = [l for l in open(tab) if l[0].isalpha()][0].strip().split(",")
    cols = ["logit", "logit_norot"] if scheme == "rope" else ["logit"]
    if head != ["layer", "head", "distance"] + sum([[k, k + "_se"] for k in cols], []):
        print("logit: header %s" % ",".join(head))
        return 1
    rows, worst, bad = table(tab), 0.0, 0
    for row in rows:
        l, h, r = int(row[0]), int(row[1]), int(row[2])
        tol = tolerance(scale[l, h, r], c, T, samples, l)
        for j, k in enumerate(cols):
            for got, w in ((row[3 + 2 * j], want[k][0][l, h, r]), (row[4 + 2 * j], want[k][1][l, h, r])):
                err = abs(got - w)
                worst = max(worst, err / tol)
                bad += not err <= tol
    ok = bad == 0 and len(rows) == L * H * T
    # the worst fraction of the bound only on a failure: it depends on the
    # BLAS's order of sums, the verdict does not
    print("logit: %s, %d rows (layers %d x heads %d x distances 0..%d), %s and their se over %d "
          "examples within the stated float64 bound: %s" %
          (scheme, len(rows), L, H, T - 1, " and ".join(cols), samples,
           "yes" if ok else "no (worst %.3g of it, %d values past it)" % (worst, bad)))
    if os.environ.get("PROFILE_REF_WORST"):
        print("logit: worst %.3g of the bound" % worst)
    return 0 if ok else 1


def main(argv):
    kind, ck, tab = argv[1], argv[2], argv[3]
    if kind == "logit":
        return logit_ref(ck, tab)
    _, secs = ckpt_read.read(ck)
    c = conf(secs)
    npar = len(secs["PARM"]) // 8
    parm = struct.unpack("<%dd" % npar, secs["PARM"])
    rows = table(tab)
    H, D, L, V = c["heads"], c["d_model"], c["layers"], c["vocab"]
    bad = 0
    if kind == "t5":
        nb, maxd = c["num_buckets"], c["max_distance"]
        t5 = parm[npar - nb * H:]  # last tensor, [bucket][head]
        n = 0
        for h, d, v in rows:
            want = t5[t5_bucket(int(d), nb, maxd) * H + int(h)]
            n += 1
            if v != want:
                bad += 1
        print("t5: %d rows (heads %d x distances 0..%d), %d differ from the checkpoint's "
              "bucket biases" % (n, H, c["max_T"] - 1, bad))
    else:
        hd, sym, n = D // H, c["symbols"], c["train_len"]
        wte = parm[0:V * D]
        ln1w = parm[V * D:V * D + D]                      # layer 0's
        ln1b = parm[V * D + L * D:V * D + L * D + D]
        w0 = V * D + 2 * L * D
        qkvw = parm[w0:w0 + 3 * D * D]                   # [3D][D], out = in . W^T + b
        b0 = w0 + 3 * L * D * D
        qkvb = parm[b0:b0 + 3 * D]
        samples = int([l.split("=")[1] for l in open(tab) if l.startswith("# samples=")][0])
        seed = int([l.split("=")[1] for l in open(tab) if l.startswith("# eval_seed=")][0])
        rng = SplitMix64(seed)
        qs = [[0.0] * (hd // 2) for _ in range(H)]
        ks = [[0.0] * (hd // 2) for _ in range(H)]
        count = 0
        for _ in range(samples):
            x = [rng.below(sym) for _ in range(n)]
            toks = [sym + 1] + x + [sym] + x[:-1]       # BOS, x, SEP, x less its last
            for t in toks:
                e = wte[t * D:(t + 1) * D]
                m = sum(e) / D
                var = sum((a - m) ** 2 for a in e) / D
                r = 1 / math.sqrt(var + 1e-5)
                y = [(e[i] - m) * r * ln1w[i] + ln1b[i] for i in range(D)]
                o = [qkvb[j] + sum(y[i] * qkvw[j * D + i] for i in range(D)) for j in range(2 * D)]
                for h in range(H):
                    for i in range(hd // 2):
                        a, b = h * hd + 2 * i, h * hd + 2 * i + 1  # interleaved pairs
                        qs[h][i] += math.hypot(o[a], o[b])
                        ks[h][i] += math.hypot(o[D + a], o[D + b])
                count += 1
        worst = 0.0
        n = 0
        for l, h, i, theta, qn, kn in rows:
            if int(l) != 0:
                continue
            n += 1
            for got, s in ((qn, qs[int(h)][int(i)]), (kn, ks[int(h)][int(i)])):
                want = s / count
                worst = max(worst, abs(got - want) / want)
        ok = worst <= 1e-12
        bad += not ok
        print("rope: layer 0's %d rows (heads %d x pairs %d) over %d positions: query and key "
              "norms within 1e-12 relative: %s" % (n, H, hd // 2, count, "yes" if ok else
                                                  "no (%.3g)" % worst))
    return 1 if bad else 0


sys.exit(main(sys.argv))
