#!/usr/bin/python3
"""bench_decay_numpy_csv.py: RoFormer's long-term decay bound written to a
CSV file, the whole script a numpy user writes (RoFormer sec. 3.4.3):

    bound(r) = (1/n) sum_{j=1..n} |S_j|,  S_j = sum_{k<j} e^{i r theta_k}

exp of the outer product of r and theta, cumulative sum along the pairs,
abs, mean, in chunks of 8192 rows (10^6 rows at once would take 1 GB),
then np.savetxt with '%.17g' (exact on reading back).

usage: bench_decay_numpy_csv.py ROWS DIM BASE OUT.csv
"""
import sys

import numpy as np


def main():
    rows, dim, base, out = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
    theta = base ** (-np.arange(0, dim, 2, dtype=np.float64) / dim)  # RoFormer eq. 15
    r = np.arange(rows, dtype=np.float64)
    bound = np.empty(rows)
    chunk = 8192
    for s in range(0, rows, chunk):
        z = np.exp(1j * np.outer(r[s:s + chunk], theta))
        bound[s:s + chunk] = np.abs(np.cumsum(z, axis=1)).mean(axis=1)
    np.savetxt(out, np.column_stack([r, bound]), fmt="%.17g", delimiter=",",
               header="r,bound", comments="")


if __name__ == "__main__":
    main()
