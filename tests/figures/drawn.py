#!/usr/bin/env python3
# drawn.py: what a figure draws, from gnuplot's `set table` output (the
# "table" terminal of plots/common.gp, or tests/cli/table_gnuplot.sh's
# stand-in gnuplot), against the CSV it was drawn from.  The table holds
# blocks "# Curve K of N, P points", "# Curve title: ...", "# x y type"
# (or "x y1 y2 type" for bands), one line a point; a panel of a
# multiplot starts at "# Curve 0 of".  The table prints 6 significant
# digits unless the script sets a format, so numbers are compared to
# 1e-5 relative (and 1e-300 absolute).
#
#   drawn.py extremes TABLE CSV COL[,COL...] [--x XCOL] [--where K=V]... [--positive] [--panel N]
#       for each COL: its smallest and largest value over the CSV rows
#       (those with K = V; --positive: > 0 only, for log axes), and
#       whether a drawn point has that value at that row's XCOL (default
#       the CSV's first column; --panel N: among panel N's curves only,
#       counted from 1); the line says "COL min: drawn" (no value:
#       an expected output holds no number ropelab computed) or names the
#       value and its x and says "NOT drawn"
#   drawn.py point TABLE X Y
#       "drawn" if some curve has a point (X, Y), else "NOT drawn"
#   drawn.py curves TABLE
#       one line a curve: panel, title, points, x range, y range
# Exit 0 when every point asked for is drawn, 1 otherwise.
import csv
import sys


def read_table(path):
    curves = []  # dicts: panel, title, cols, pts (tuples of floats)
    panel = 0
    cur = None
    for line in open(path, encoding='utf-8', errors='replace'):
        line = line.rstrip('\n')
        if line.startswith('# Curve ') and ' of ' in line:
            k = int(line.split()[2])
            if k == 0:
                panel += 1
            cur = {'panel': panel, 'title': '', 'cols': [], 'pts': []}
            curves.append(cur)
        elif line.startswith('# Curve title:'):
            cur['title'] = line.split(':', 1)[1].strip().strip('"')
        elif line.startswith('# x '):
            cur['cols'] = line[2:].split()
        elif line and not line.startswith('#') and cur is not None:
            f = line.split()
            vals = []
            for v in f:
                try:
                    vals.append(float(v))
                except ValueError:
                    break
            if len(vals) >= 2:
                cur['pts'].append(tuple(vals))
    return curves


def same(a, b):
    return abs(a - b) <= 1e-5 * max(abs(a), abs(b)) + 1e-300


def drawn_at(curves, x, y):
    for c in curves:
        for p in c['pts']:
            if same(p[0], x) and any(same(v, y) for v in p[1:]):
                return True
    return False


def read_csv(path):
    rows = [r for r in csv.reader(l for l in open(path, encoding='utf-8') if not l.startswith('#'))]
    return rows[0], rows[1:]


def num(s):
    try:
        v = float(s)
        return v if v == v and abs(v) != float('inf') else None
    except ValueError:
        return None


def main(argv):
    if len(argv) < 3:
        print(__doc__ if __doc__ else 'see the header of drawn.py', file=sys.stderr)
        return 2
    what, table = argv[1], argv[2]
    curves = read_table(table)
    ok = True
    if what == 'curves':
        for c in curves:
            xs = [p[0] for p in c['pts']]
            ys = [v for p in c['pts'] for v in p[1:]]
            print('panel %d "%s": %d points, x %s..%s, y %s..%s' % (
                c['panel'], c['title'], len(c['pts']),
                '%.6g' % min(xs) if xs else '-', '%.6g' % max(xs) if xs else '-',
                '%.6g' % min(ys) if ys else '-', '%.6g' % max(ys) if ys else '-'))
        return 0
    if what == 'point':
        x, y = float(argv[3]), float(argv[4])
        ok = drawn_at(curves, x, y)
        print('(%s, %s): %s' % (argv[3], argv[4], 'drawn' if ok else 'NOT drawn'))
        return 0 if ok else 1
    if what == 'extremes':
        csv_path, cols = argv[3], argv[4].split(',')
        rest = argv[5:]
        xcol, where, positive, panel = None, [], False, None
        i = 0
        while i < len(rest):
            if rest[i] == '--x':
                xcol = rest[i + 1]
                i += 2
            elif rest[i] == '--where':
                where.append(rest[i + 1].split('=', 1))
                i += 2
            elif rest[i] == '--positive':
                positive = True
                i += 1
            elif rest[i] == '--panel':
                panel = int(rest[i + 1])
                i += 2
            else:
                print('drawn.py: unknown option %s' % rest[i], file=sys.stderr)
                return 2
        if panel is not None:
            curves = [c for c in curves if c['panel'] == panel]
        head, rows = read_csv(csv_path)
        xi = head.index(xcol) if xcol else 0
        rows = [r for r in rows if all(r[head.index(k)] == v for k, v in where)]
        for col in cols:
            ci = head.index(col)
            pts = [(num(r[xi]), num(r[ci])) for r in rows]
            pts = [(x, y) for x, y in pts if x is not None and y is not None and (not positive or (y > 0 and x > 0))]
            if not pts:
                print('%s: no numbers' % col)
                ok = False
                continue
            lo = min(pts, key=lambda p: p[1])
            hi = max(pts, key=lambda p: p[1])
            for name, (x, y) in (('min', lo), ('max', hi)):
                d = drawn_at(curves, x, y)
                ok &= d
                print('%s %s: drawn' % (col, name) if d else
                      '%s %s %.6g at %s %.6g: NOT drawn' % (col, name, y, head[xi], x))
        return 0 if ok else 1
    print('drawn.py: unknown request %s' % what, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
