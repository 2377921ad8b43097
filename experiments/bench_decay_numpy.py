#!/usr/bin/python3
"""bench_decay_numpy.py: RoFormer's long-term decay bound, the way a user
would write it in numpy (RoFormer sec. 3.4.3):

    bound(r) = (1/n) sum_{j=1..n} |S_j|,  S_j = sum_{k<j} e^{i r theta_k}

Direct evaluation: exp of the outer product of r and theta, cumulative sum
along the pairs, abs, mean; in chunks of 8192 rows so memory stays bounded.

usage: bench_decay_numpy.py ROWS [DIM [BASE [OUT.npy]]]
Prints the seconds spent in the evaluation on stdout; with OUT.npy also
saves the bound for rows r = 0..ROWS-1 (for the accuracy comparison).
"""
import sys
import time

import numpy as np


def decay_bound(r, theta):
    z = np.exp(1j * np.outer(r, theta))       # rows x n
    return np.abs(np.cumsum(z, axis=1)).mean(axis=1)


def main():
    rows = int(sys.argv[1])
    dim = int(sys.argv[2]) if len(sys.argv) > 2 else 128
    base = float(sys.argv[3]) if len(sys.argv) > 3 else 10000.0
    out = sys.argv[4] if len(sys.argv) > 4 else None
    # RoFormer eq. 15: theta_i = base^(-2i/d), i = 0..d/2-1
    theta = base ** (-np.arange(0, dim, 2, dtype=np.float64) / dim)
    bound = np.empty(rows) if out else None
    chunk = 8192
    t0 = time.perf_counter()
    for s in range(0, rows, chunk):
        r = np.arange(s, min(s + chunk, rows), dtype=np.float64)
        b = decay_bound(r, theta)
        if bound is not None:
            bound[s:s + len(r)] = b
    t1 = time.perf_counter()
    print(f"{t1 - t0:.6f}")
    if out:
        np.save(out, bound)


if __name__ == "__main__":
    main()
