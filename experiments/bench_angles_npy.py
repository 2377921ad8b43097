"""bench_angles_npy.py N OUT.npy: the numpy peer of `ropelab angles --dim
128 --to N-1 --format pairs -o OUT.npy`: RoPE's table, base 10^4, 64
pairs, columns pos, cos0..cos63, sin0..sin63, as the fastest plain numpy
computes it (one outer product, np.cos and np.sin over the whole array,
float64), then np.save.  Prints the CPU seconds of compute and of save."""
import sys
import time

import numpy as np

n, out = int(sys.argv[1]), sys.argv[2]
t0 = time.process_time()
pos = np.arange(n, dtype=np.float64)
theta = 10000.0 ** (-np.arange(0, 128, 2, dtype=np.float64) / 128)
ang = np.outer(pos, theta)
table = np.empty((n, 129))
table[:, 0] = pos
np.cos(ang, out=table[:, 1:65])
np.sin(ang, out=table[:, 65:])
t1 = time.process_time()
np.save(out, table)
t2 = time.process_time()
print(f"numpy compute {t1 - t0:.2f} s cpu, np.save {t2 - t1:.2f} s cpu")
