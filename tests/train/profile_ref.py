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
#   profile_ref.py logit CKPT TABLE (--measure logit; rope, nope, alibi, t5,
#                                   xl, deberta, tupe on copy) every layer's
#                                   mean attention logit per head and
#                                   distance and its standard error over the
#                                   same examples, from a whole forward in
#                                   numpy (train.h's model: pre-norm layers,
#                                   GPT-2's tanh GELU), the rotation applied
#                                   in its relative form q_i . R((j - i)
#                                   theta) k_j rather than as ropelab's two
#                                   absolute turns; rope's logit_norot too
#                                   (see tolerance()); xl, deberta and tupe
#                                   from their papers' equations term by
#                                   term (see xl_logit, deberta_logit,
#                                   tupe_logit), the variant train.h
#                                   documents
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


def tolerance(scale, c, T, samples, layer, extra=0):
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
    # table of each position's angle), exp and tanh, rounded up.  extra:
    # the sums a scheme's position term passes through before the head's
    # dot (xl's W_R R, hd; deberta's projection of its table, D; tupe's
    # LayerNorm and projection of its table, 2 D); scale then counts their
    # terms' magnitudes through |q| |W_R R| etc. (xl_logit and the others)
    D, hd = c["d_model"], c["d_model"] // c["heads"]
    chain = D + hd + T + samples + layer * (T + 4 * D + D + D) + extra
    return 8 * chain * U * scale


def deberta_bucket(r, k, maxp):
    # DeBERTa's log bucket of a relative position r (He et al. 2021, the
    # reference's make_log_bucket_position, as transformers'
    # modeling_deberta_v2.py has it; read, not copied): within mid = k / 2
    # of 0 the position itself, beyond it, with r's sign, mid + ceil(log(|r|
    # / mid) / log((maxp - 1) / mid) (mid - 1)), unbounded (the span clamps)
    mid = k // 2
    if abs(r) <= mid:
        return r
    lp = mid + int(math.ceil(math.log(abs(r) / mid) / math.log((maxp - 1) / mid) * (mid - 1)))
    return lp if r > 0 else -lp


def xl_logit(np, q, k, u, v, W, R, rel, hd):
    # Transformer-XL (Dai et al. 2019, sec. 3.3, the equation of A^rel_ij),
    # its four terms one by one, then over sqrt(hd) (the reference's
    # scale): (a) content q_i . k_j, (b) content-position q_i . W_R R_{i-j},
    # (c) the global content bias u . k_j, (d) the global position bias
    # v . W_R R_{i-j}.  ropelab's variant (train.h, "xl"): R_r of the head
    # dimension, [sin(r f), cos(r f)], W_R hd x hd per head, u, v per layer
    # and head, one segment (no memory).  R is indexed by the distance
    # rel[i][j] = i - j.  Also the magnitudes each term sums, for the bound.
    WR = R @ W.T                                  # row r: W_R R_r (W's row a: output a)
    rows = np.arange(len(q))[:, None]
    a = q @ k.T                                   # (a)
    b = (q @ WR.T)[rows, rel]                     # (b): [i][r] = q_i . W_R R_r, read at r = i - j
    cc = (k @ u)[None, :]                         # (c)
    d = (WR @ v)[rel]                             # (d)
    nq, nk, nw = (np.linalg.norm(x, axis=1) for x in (q, k, WR))
    mag = (np.outer(nq, nk) + nq[:, None] * nw[rel] + np.linalg.norm(u) * nk[None, :] +
           np.linalg.norm(v) * nw[rel])
    return (a + b + cc + d) / np.sqrt(hd), mag / np.sqrt(hd)


def deberta_logit(np, q, k, Kr, Qr, row, rel, hd):
    # DeBERTa's disentangled attention (He et al. 2021, sec. 3.1, the sum
    # A~_ij and the softmax's 1/sqrt(3d); train.h cites it as eq. 4-5):
    # c2c Q^c_i . K^c_j + c2p Q^c_i . K^r_delta + p2c K^c_j . Q^r_delta.
    # K^r, Q^r: the layer's own key and query projections of the relative
    # table (DeBERTa-v3's share_att_key; bias included, as the reference's
    # Linear has one), given here.  delta: sec. 3.1's clamp(i - j + k, 0,
    # 2k - 1) of the bucketed i - j for both terms; row[r] its row of the
    # stored table, which holds only the upper half (rows k..2k-1: keys
    # never follow the query in a decoder; train.h, "deberta").  The paper
    # prints delta(j, i) in p2c; the reference code (transformers'
    # modeling_deberta_v2.py, read) gathers k . Q^r^T at clamp(-r_pos + k)
    # and then transposes, which reads delta(i, j), c2p's row, and train.h
    # documents that row for both ("at clamp(bucket(i - j) + k, 0, 2k -
    # 1)"): followed here.
    ix = row[rel]                                 # [i][j]: the table row of distance i - j
    rows = np.arange(len(q))[:, None]
    c2c = q @ k.T
    c2p = (q @ Kr.T)[rows, ix]                    # [i][row] = q_i . K^r_row
    p2c = (k @ Qr.T)[rows.T, ix]                  # [j][row] = k_j . Q^r_row, read at (j, ix[i][j])
    nq, nk = np.linalg.norm(q, axis=1), np.linalg.norm(k, axis=1)
    nkr, nqr = np.linalg.norm(Kr, axis=1), np.linalg.norm(Qr, axis=1)
    mag = np.outer(nq, nk) + nq[:, None] * nkr[ix] + nk[None, :] * nqr[ix]
    s = np.sqrt(3.0 * hd)
    return (c2c + c2p + p2c) / s, mag / s


def tupe_logit(np, q, k, pq, pk, hd):
    # TUPE-A (Ke et al. 2021, sec. 3.1, the untied correlation train.h
    # cites as eq. 6): the content correlation and the untied positional
    # one, each over sqrt(2d), d the head dimension:
    # (x_i W^Q).(x_j W^K) / sqrt(2d) + (p_i U^Q).(p_j U^K) / sqrt(2d);
    # pq, pk: this head's U^Q pbar_i, U^K pbar_j (tupe_positions).  No
    # [CLS] untying (train.h, "tupe": a decoder has no [CLS]).
    s = np.sqrt(2.0 * hd)
    mag = (np.outer(np.linalg.norm(q, axis=1), np.linalg.norm(k, axis=1)) +
           np.outer(np.linalg.norm(pq, axis=1), np.linalg.norm(pk, axis=1)))
    return (q @ k.T) / s + (pq @ pk.T) / s, mag / s


def tupe_positions(np, p, Uq, Uk):
    # TUPE (Ke et al. 2021, sec. 3.1): one absolute position embedding
    # table shared by the layers (its correlation computed once), projected
    # by U^Q and U^K; train.h ("tupe"): the table after a LayerNorm without
    # affine (epsilon the model's, 1e-5), U^Q, U^K D x D with no bias,
    # split by head
    m = p.mean(axis=1, keepdims=True)
    pbar = (p - m) / np.sqrt(((p - m) ** 2).mean(axis=1, keepdims=True) + 1e-5)
    return pbar @ Uq.T, pbar @ Uk.T


def logit_ref(ck, tab):
    import numpy as np
    _, secs = ckpt_read.read(ck)
    c, name = conf(secs), texts(secs["NAME"])
    scheme = name["scheme"]
    if name["task"] != "copy" or scheme not in ("rope", "nope", "alibi", "t5", "xl", "deberta",
                                                "tupe"):
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
    # checkpoint.md's PARM: rope, nope, alibi, xl, deberta and tupe have
    # no position table added to the tokens
    wte = take(V, D)
    ln1w, ln1b, qkvw, qkvb = take(L, D), take(L, D), take(L, 3 * D, D), take(L, 3 * D)
    apw, apb, ln2w, ln2b = take(L, D, D), take(L, D), take(L, D), take(L, D)
    fcw, fcb, fpw, fpb = take(L, 4 * D, D), take(L, 4 * D), take(L, D, 4 * D), take(L, D)
    take(2, D)                                                       # the final norm: unread
    nb = c["num_buckets"] if scheme == "t5" else 0
    t5 = take(nb, H) if nb else None                                 # [bucket][head]
    extra = 0
    if scheme == "xl":
        # [layer][head][a][b]: W_R's output a from R's component b; u, v
        xlw, xlu, xlv = take(L, H, hd, hd), take(L, H, hd), take(L, H, hd)
        freq = c["base"] ** (-2.0 * np.arange(hd // 2) / hd)         # f_k = base^(-2k/hd)
        r = np.arange(T)[:, None] * freq[None, :]
        xlR = np.concatenate([np.sin(r), np.cos(r)], axis=1)         # R_r = [sin(r f), cos(r f)]
        extra = hd
    if scheme == "deberta":
        kk = c["num_buckets"]
        deb = take(kk, D)                                            # the table's rows k..2k-1
        # delta(i, j) = clamp(bucket(i - j) + k, 0, 2k - 1), less k: the stored row
        drow = np.array([min(max(deberta_bucket(r, kk, c["max_distance"]) + kk, 0), 2 * kk - 1)
                         - kk for r in range(T)])
        if drow.min() < 0 or drow.max() >= kk:
            print("logit: deberta row %d outside the table's %d" % (drow.max(), kk))
            return 1
        extra = D
    if scheme == "tupe":
        tpos, tuq, tuk = take(c["max_T"], D), take(D, D), take(D, D)
        pq, pk = tupe_positions(np, tpos[:T], tuq, tuk)
        extra = 2 * D
    if at[0] != len(P):
        print("logit: %d parameters, %d expected" % (len(P), at[0]))
        return 1
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
    rel = np.maximum(dist, 0)            # i - j where j <= i (the rest is masked)
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
            if scheme == "deberta":  # K^r, Q^r: the layer's key and query projections of the table
                Kr = deb @ qkvw[l][D:2 * D].T + qkvb[l][D:2 * D]
                Qr = deb @ qkvw[l][:D].T + qkvb[l][:D]
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
                elif scheme == "xl":
                    S, mag = xl_logit(np, q, k, xlu[l, h], xlv[l, h], xlw[l, h], xlR, rel, hd)
                elif scheme == "deberta":
                    hs = slice(h * hd, (h + 1) * hd)
                    S, mag = deberta_logit(np, q, k, Kr[:, hs], Qr[:, hs], drow, rel, hd)
                elif scheme == "tupe":
                    hs = slice(h * hd, (h + 1) * hd)
                    S, mag = tupe_logit(np, q, k, pq[:, hs], pk[:, hs], hd)
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
                if scheme in ("xl", "deberta", "tupe"):
                    sc[s, l, h] = by_dist(mag)
                else:
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
        tol = tolerance(scale[l, h, r], c, T, samples, l, extra)
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
