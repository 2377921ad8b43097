#!/usr/bin/env python3
# ref_decay.py: RoPE's long-term decay written again with numpy, from the
# papers, for the decay figure's case (tests/figures/cases/decay.sh):
#   theta_i = base^(-2i/d), i = 0..d/2-1 (RoFormer eq. 15),
#   B_r = sum_i cos(r theta_i) (Men et al. 2024, eq. 3),
#   bound(r) = (1/n) sum_{j=1..n} |S_j|, S_j = sum_{k<j} e^{i r theta_k},
#   n = d/2 (RoFormer section 3.4.3).
#
#   ref_decay.py grid CSV D BASE > REF.csv
#       r,bound,similarity,mc_self_expect (sigma = 1, rot = d) at every r of CSV's first column (the grid the
#       command was asked for: an input, not a result)
#   ref_decay.py range CSV TABLE SVG D BASE
#       CSV from decay --bins K --bin-stat range: its bins must tile every
#       integer r from the first r_first to the last r_last; numpy's
#       smallest and largest B_r and bound over each bin's integer r must
#       be drawn (TABLE, gnuplot's table terminal) at the bin's geometric
#       centre sqrt(r_first r_last); and the first integer r with B_r < 0
#       must lie in the bin the figure marks as the first negative one
#       (its label in SVG, the same figure drawn as an image).
#       Prints one line per check, no number (an expected output holds
#       none), except where a check fails.
import bisect
import sys

import numpy as np

sys.path.insert(0, __import__('os').path.dirname(__file__))
from drawn import read_table, same  # noqa: E402


def thetas(d, base):
    return base ** (-np.arange(0, d, 2, dtype=np.float64) / d)


def measures(r, th):
    ph = np.outer(r, th)
    b = np.cos(ph).sum(axis=1)
    s = np.cumsum(np.exp(1j * ph), axis=1)
    return np.abs(s).mean(axis=1), b


def rows(path):
    lines = [l.strip() for l in open(path, encoding='utf-8') if not l.startswith('#') and l.strip()]
    head = lines[0].split(',')
    return head, [l.split(',') for l in lines[1:]]


def main(argv):
    if argv[1] == 'grid':
        head, rs = rows(argv[2])
        r = np.array([float(x[0]) for x in rs])
        bound, b = measures(r, thetas(int(argv[3]), float(argv[4])))
        # mc_self_expect = 2 sigma^2 B_r + sigma^2 (d - rot): 2 B_r for
        # sigma = 1 and every dimension rotated
        print('r,bound,similarity,mc_self_expect')
        for k in range(len(r)):
            print('%s,%.17g,%.17g,%.17g' % (rs[k][0], bound[k], b[k], 2 * b[k]))
        return 0
    head, rs = rows(argv[2])
    curves = read_table(argv[3])
    th = thetas(int(argv[5]), float(argv[6]))
    c = {h: i for i, h in enumerate(head)}
    first = [int(x[c['r_first']]) for x in rs]
    last = [int(x[c['r_last']]) for x in rs]
    tiled = all(first[k + 1] == last[k] + 1 for k in range(len(rs) - 1)) and all(
        f <= l for f, l in zip(first, last))
    print('bins tile every integer r from the first to the last: %s' % ('yes' if tiled else 'no'))
    r = np.arange(first[0], last[-1] + 1, dtype=np.float64)
    bound, b = measures(r, th) if len(r) <= 20000 else chunked(r, th)
    # the table prints 6 significant digits: x within 1e-5 relative
    pts = sorted((p[0], v) for cv in curves for p in cv['pts'] for v in p[1:])
    xs = [p[0] for p in pts]
    ok = {'bound': 0, 'similarity': 0}
    bad = []
    for k in range(len(rs)):
        sl = slice(first[k] - first[0], last[k] - first[0] + 1)
        x = (first[k] * last[k]) ** 0.5
        i0 = bisect.bisect_left(xs, x * (1 - 1e-5))
        i1 = bisect.bisect_right(xs, x * (1 + 1e-5))
        near = [v for _, v in pts[i0:i1]]
        for name, arr in (('bound', bound), ('similarity', b)):
            lo, hi = arr[sl].min(), arr[sl].max()
            if any(same(v, lo) for v in near) and any(same(v, hi) for v in near):
                ok[name] += 1
            else:
                bad.append('%s bin %d..%d: numpy %.6g..%.6g NOT drawn' % (name, first[k], last[k], lo, hi))
    for name in ('bound', 'similarity'):
        print('%s: numpy smallest and largest drawn in every bin: %s' % (
            name, 'yes' if ok[name] == len(rs) else 'no (%d of %d)' % (ok[name], len(rs))))
    for line in bad[:5]:
        print(line)
    neg = np.nonzero(b < 0)[0]
    if len(neg) == 0:
        print('numpy: no negative B_r')
        return 0
    rneg = int(r[neg[0]])
    mark = [l for l in open(argv[4], encoding='utf-8', errors='replace') if 'first B_r' in l]
    print('first negative B_r (numpy) inside the marked bin: %s' % (
        'yes' if any(inside(l, rneg) for l in mark) else 'no (r = %d; marks: %s)' % (rneg, ' '.join(mark).strip())))
    return 0


def chunked(r, th):
    parts = [measures(r[i:i + 20000], th) for i in range(0, len(r), 20000)]
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def inside(label, rneg):
    import re
    m = re.search(r'r in ([0-9]+)\.\.([0-9]+)', label)
    return bool(m) and int(m.group(1)) <= rneg <= int(m.group(2))


if __name__ == '__main__':
    sys.exit(main(sys.argv))
