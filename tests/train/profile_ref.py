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
# Prints one line per check; exit 1 on a mismatch.
import math
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


def main(argv):
    kind, ck, tab = argv[1], argv[2], argv[3]
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
