#!/usr/bin/env python3
"""readme_study_table.py PAGE CSV MARKER: the table of a trained study's
page that follows the first line containing MARKER says what CSV (the
study's in_dist.csv: scheme, task, in_mean, in_min, in_max, out_mean,
out_min, out_max) holds.

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


def main():
    page, table, marker = sys.argv[1:4]
    want = {(r["scheme"], r["task"]): r for r in csv.DictReader(open(table))}
    with open(page) as f:
        head, rows = table_after(f.read().splitlines(), marker)
    schemes, bad, n, seen = head[1:], [], 0, set()
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
    print(f"ok: {n} numbers in {len(seen)} cells as {table} holds them")
    return 0


sys.exit(main())
