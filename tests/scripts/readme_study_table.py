#!/usr/bin/env python3
"""readme_study_table.py PAGE CSV MARKER TABLE L: the table of a trained
study's page that follows the first line containing MARKER says what CSV
(the study's in_dist.csv: scheme, task, in_mean, in_min, in_max,
out_mean, out_min, out_max) holds, and CSV holds what TABLE (the sweep's
rows, one per scheme, task, seed and length) gives: each seed's mean
exact match over lengths 1..L and L+1..2L, then the mean, min and max
over seeds, recomputed here to within CSV's rounding (half a unit of its
third decimal).

The table's header names the schemes ("| task | nope | t5 | ..."), each
row a task and a range ("copy, 1..20" in distribution, "copy, 21..40"
past it); a cell is "mean" or "mean (min-max)", bold allowed.  The mean
must be the CSV's to 3 decimals and min, max to 2, as the pages round
them; every (scheme, task) of the CSV must have both its cells.  Prints
the number of cells checked, or each difference, and exits 1 on any."""
import csv
import re
import sys


def table_after(lines, marker):
    at = next((i for i, l in enumerate(lines) if marker in l), None)
    if at is None:
        sys.exit(f"no line with {marker!r}")
    rows = []
    for line in lines[at + 1:]:
        if line.startswith("|"):
            rows.append([c.strip().replace("**", "") for c in line.strip().strip("|").split("|")])
        elif rows:
            break
    if len(rows) < 3:
        sys.exit(f"no table after {marker!r}")
    return rows[0], [r for r in rows[1:] if not r[0].startswith("---")]


def by_seed(sweep, L):
    """{(scheme, task): {"in": [per seed], "out": [...]}} from the sweep's
    rows (its '#' metadata skipped; rope's row is method rope)."""
    acc = {}
    with open(sweep) as f:
        for r in csv.DictReader(line for line in f if not line.startswith("#")):
            if r["method"] not in ("-", "rope"):
                continue
            side = "in" if int(r["len"]) <= L else "out"
            acc.setdefault((r["scheme"], r["task"], r["seed"], side), []).append(float(r["exact"]))
    out = {}
    for (sch, task, _, side), v in sorted(acc.items()):
        out.setdefault((sch, task), {"in": [], "out": []})[side].append(sum(v) / len(v))
    return out


def check_csv(want, sweep, L):
    got, bad = by_seed(sweep, L), []
    if set(got) != set(want):
        bad.append(f"schemes and tasks: {sorted(set(got) ^ set(want))} in one file only")
    for k in set(got) & set(want):
        for side in ("in", "out"):
            v = got[k][side]
            for stat, x in (("mean", sum(v) / len(v)), ("min", min(v)), ("max", max(v))):
                if abs(float(want[k][f"{side}_{stat}"]) - x) > 0.0005 + 1e-12:
                    bad.append(f"{k[0]} {k[1]} {side}_{stat}: in_dist {want[k][side + '_' + stat]}, table {x:.6f}")
    return bad


def main():
    page, table, marker, sweep, L = sys.argv[1:6]
    want = {(r["scheme"], r["task"]): r for r in csv.DictReader(open(table))}
    bad = check_csv(want, sweep, int(L))
    with open(page) as f:
        head, rows = table_after(f.read().splitlines(), marker)
    schemes, n, seen = head[1:], 0, set()
    for row in rows:
        m = re.fullmatch(r"(\w+), (\d+)\.\.(\d+)", row[0])
        if not m or len(row) != len(head):
            bad.append(f"row {row[0]!r}: not 'task, a..b' with {len(schemes)} cells")
            continue
        task, side = m.group(1), "in" if m.group(2) == "1" else "out"
        for scheme, cell in zip(schemes, row[1:]):
            ref = want.get((scheme, task))
            c = re.fullmatch(r"([0-9.]+)(?: \(([0-9.]+)-([0-9.]+)\))?", cell)
            if ref is None or c is None:
                bad.append(f"{scheme} {row[0]}: {cell!r} (no such row in the table, or not 'mean (min-max)')")
                continue
            seen.add((scheme, task, side))
            got = [c.group(1)] + ([c.group(2), c.group(3)] if c.group(2) else [])
            exp = [f"{float(ref[side + '_mean']):.3f}"]
            if c.group(2):
                exp += [f"{float(ref[side + '_min']):.2f}", f"{float(ref[side + '_max']):.2f}"]
            n += len(got)
            if got != exp:
                bad.append(f"{scheme} {row[0]}: page {cell!r}, table {' '.join(exp)}")
    missing = [f"{s} {t} {side}" for s, t in want for side in ("in", "out") if (s, t, side) not in seen]
    bad += [f"missing: {m}" for m in missing]
    for b in bad:
        print(b)
    if bad:
        return 1
    print(f"ok: {n} numbers in {len(seen)} cells as {table} holds them, and {table} as {sweep} gives it")
    return 0


sys.exit(main())
