#!/usr/bin/env python3
"""brute.py ROPELAB: an independent second implementation of Men et al.'s
base search (Su's staged grid), by direct summation of math.cos, for small
heads and lengths; compares every column of `ropelab bound men`.

B_r = sum_{i<d/2} cos(r theta_i), theta_i = base ** (-2 i / d) (Python's
float pow: within an ulp or so of ropelab's correctly rounded theta; a
decision could differ only where |B_r| < ~1e-12, which the comparison
would show as a different base).  The grid is Su's (kexue.fm/archives/
10122): B = 1000 L; for k = 1..stages, b_j = (j / 10^k) * B, the first
feasible one becomes B.  Same IEEE operations as ropelab, so bases must be
equal exactly; min_similarity to 1e-12 (two summation orders of d/2 terms
of size <= 1: a few times 1e-15, with room) plus half a unit of the last
digit ropelab prints (it prints only the digits its error bound leaves
known)."""
import decimal
import math
import subprocess
import sys


def first_fail(base, d, L):
    th = [base ** (-2.0 * i / d) for i in range(d // 2)]
    for r in range(L):
        if sum(math.cos(r * t) for t in th) < 0:
            return r
    return L


def margin(base, d, L):
    th = [base ** (-2.0 * i / d) for i in range(d // 2)]
    best, at = math.inf, 0
    for r in range(L):
        v = sum(math.cos(r * t) for t in th)
        if v < best:
            best, at = v, r
    return best, at


def staged(d, L, stages):
    B, prev = 1000.0 * L, 0.0
    assert first_fail(B, d, L) == L
    for k in range(1, stages + 1):
        scale = 10.0 ** k
        nxt, prev = B, 0.0
        j = 1.0
        while j < scale:
            b = j / scale * B
            if b > 1:
                if first_fail(b, d, L) == L:
                    nxt = b
                    break
                prev = b
            j += 1
        B = nxt
    return B, prev


def main():
    exe = sys.argv[1]
    bad = 0
    # the last two span several chunks of rows of ropelab's scan (256
    # rows each), so its order of chunks and its early stop are exercised
    for d, lens, stages in ((16, (40, 100), 3), (32, (200,), 3), (8, (30,), 4),
                            (16, (1500,), 3), (32, (1200,), 2)):
        out = subprocess.run([exe, "bound", "men", "--dim", str(d), "--stages", str(stages),
                              "--len", ",".join(map(str, lens)), "--no-meta", "--no-header"],
                             capture_output=True, text=True, check=True).stdout.split("\n")
        for L, line in zip(lens, out):
            f = [float(x) for x in line.split(",")]
            last = 10.0 ** decimal.Decimal(line.split(",")[4]).as_tuple().exponent
            B, prev = staged(d, L, stages)
            mn, at = margin(B, d, L)
            pf = first_fail(prev, d, L) if prev > 0 else -1
            pf = pf if pf < L else -1
            want = [d, d, L, B, mn, at, prev, pf]
            ok = (f[:4] == want[:4] and abs(f[4] - mn) <= 1e-12 + last / 2 and f[5:] == want[5:])
            bad += not ok
            print(("ok" if ok else "not ok"), f"- d {d} L {L}: ropelab {f[3:]} python {want[3:]}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
