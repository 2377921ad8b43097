#!/usr/bin/python3
"""bench_decay_numpy_fast.py: the fastest honest numpy peer of `ropelab
decay --to ROWS-1 --dim DIM -o OUT.csv` we know of: the same bound as
bench_decay_numpy_csv.py (RoFormer sec. 3.4.3, exp of the outer product,
cumulative sum, abs, mean, in chunks of 8192 rows), but written as CSV by
one join over Python's repr (the shortest round-trip form, as ropelab
prints; np.savetxt formats row by row and is several times slower), one
thread (numpy's element-wise kernels do not thread).

usage: bench_decay_numpy_fast.py ROWS DIM BASE OUT.csv
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
    with open(out, "w") as f:
        f.write("r,bound\n")
        f.write("\n".join(map("{0!r},{1!r}".format, range(rows), bound.tolist())))
        f.write("\n")


if __name__ == "__main__":
    main()
