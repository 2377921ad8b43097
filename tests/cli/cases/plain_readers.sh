# Every command's default output (no ropelab option about the format)
# loads in the plain readers a user reaches for first: numpy's
# genfromtxt(names=True, delimiter=','), pandas' read_csv(comment='#',
# float_precision='round_trip') and
# R's read.csv(comment.char='#') (issue 15 section 5: the header row comes
# first, the '# key=value' metadata follows it).  The old layout, metadata
# first, made genfromtxt take '# ropelab=...' as the names.
# Expected, per table: its column names and row count (written by hand
# from each command's documented columns and grid), and the three readers
# agreeing on every value: numpy's and pandas' numbers equal those of
# Python's csv module over the non-'#' lines (parsed by float, exact),
# and R's column sums within 1e-12 relative of math.fsum's (R sums in
# long double; every column here has fewer than 10^4 terms of one sign
# or is O(1), so the two differ by a few ulps of the sum at most).
py=
for p in python3 /usr/bin/python3; do
  if "$p" -c 'import numpy, pandas' 2>/dev/null; then py=$p; break; fi
done
# tests/run.sh installs them (python3-numpy, python3-pandas, r-base-core)
[ -n "$py" ] && command -v Rscript >/dev/null || exit 77
set -e
"$ROPELAB" freqs --dim 8 --train-len 64 > freqs.csv
"$ROPELAB" angles --dim 4 --to 3 > angles.csv
"$ROPELAB" decay --dim 8 --to 4 > decay.csv
"$ROPELAB" decay --dim 8 --to 2 --method rope,linear --factor 2 --train-len 16 > decay_sweep.csv
"$ROPELAB" bound men --len 16 > bound_men.csv
"$ROPELAB" bound pi --dim 8 --to 4 > bound_pi.csv
"$ROPELAB" precision --dim 8 --precision hf-fp32 --to 8 --points 4 > precision.csv
"$ROPELAB" profile --scheme alibi,rope --dim 8 --to 3 > profile.csv
"$ROPELAB" params --scheme alibi --heads 4 > params.csv
"$ROPELAB" matrix --scheme rope --dim 4 --len 2 > matrix.csv
"$ROPELAB" compare --scheme rope,nope --len 8 > compare.csv
"$ROPELAB" extrapolate --scheme rope --measure unseen --train-len 8 --eval-len 16 --lengths 8,16 --dim 8 > extrapolate.csv
"$ROPELAB" freqs --dim 8 --no-meta | cut -d, -f2 > theta.csv
"$ROPELAB" audit theta.csv > audit.csv
"$ROPELAB" decay --dim 8 --to 3 --base 10,100 --shard 1/2 > s1.csv
"$ROPELAB" decay --dim 8 --to 3 --base 10,100 --shard 2/2 > s2.csv
"$ROPELAB" merge s1.csv s2.csv > merge.csv
set +e
files="freqs angles decay decay_sweep bound_men bound_pi precision profile params matrix compare extrapolate audit merge"
# one R for every table (its start-up is most of the time)
# shellcheck disable=SC2086
Rscript -e 'for (f in commandArgs(TRUE)) { d <- read.csv(paste0(f, ".csv"), comment.char = "#")
  sink(paste0(f, ".r")); for (n in names(d)) if (is.numeric(d[[n]]))
    cat(n, sprintf("%.17g", sum(d[[n]], na.rm = TRUE)), "\n"); sink() }' $files 2> r.err ||
  echo "R failed: $(head -1 r.err)"
"$py" - $files <<'PY'
import csv, math, sys, warnings
import numpy as np, pandas as pd
warnings.simplefilter("ignore")

def num(s):
    try:
        return float(s)
    except ValueError:
        return None

for name in sys.argv[1:]:
    path = name + ".csv"
    with open(path) as fh:
        lines = [l for l in fh.read().split("\n") if l and not l.startswith("#")]
    rows = list(csv.reader(lines))
    head, body = rows[0], rows[1:]
    problems = []
    # numpy: the names from the first line, '#' lines skipped wherever they
    # are; empty (n/a) cells masked (without usemask, dtype=None fills them
    # with -1 in a column it takes for integers: the README says so)
    a = np.atleast_1d(np.genfromtxt(path, delimiter=",", names=True, dtype=None,
                                    encoding="utf-8", usemask=True))
    if list(a.dtype.names) != head:
        problems.append("numpy names %s" % (a.dtype.names,))
    if len(a) != len(body):
        problems.append("numpy rows %d" % len(a))
    # pandas: float_precision='round_trip', since its default parser is
    # not correctly rounded (pandas 1.5.3 read 0.0004753926768898964 of
    # this audit table 1778 ulps off)
    p = pd.read_csv(path, comment="#", float_precision="round_trip")
    if list(p.columns) != head:
        problems.append("pandas names %s" % list(p.columns))
    if len(p) != len(body):
        problems.append("pandas rows %d" % len(p))
    rsum = {}
    for l in open(name + ".r"):
        k, v = l.split()
        rsum[k] = float(v)
    for j, h in enumerate(head):
        cells = [r[j] for r in body]
        vals = [num(c) if c else None for c in cells]
        if any(c and v is None for c, v in zip(cells, vals)):
            if [str(x) for x in p[h]] != cells and not any(c == "" for c in cells):
                problems.append("pandas text %s" % h)
            continue  # a text column
        if all(v is None for v in vals):
            continue
        npv = [math.nan if m else float(x) for x, m in zip(a[h].data, np.ma.getmaskarray(a[h]))]
        pdv = [float(x) for x in p[h]]
        for i, v in enumerate(vals):
            if v is None:
                if not (math.isnan(npv[i]) and math.isnan(pdv[i])):
                    problems.append("%s row %d: empty cell read as %r, %r" % (h, i, npv[i], pdv[i]))
                continue
            if npv[i] != v or pdv[i] != v:
                problems.append("%s row %d: %r numpy %r pandas %r" % (h, i, v, npv[i], pdv[i]))
        s = math.fsum(v for v in vals if v is not None)
        if h not in rsum:
            problems.append("R has no numeric column %s" % h)
        elif abs(rsum[h] - s) > 1e-12 * max(abs(s), 1.0):
            problems.append("R sum of %s %r, Python %r" % (h, rsum[h], s))
    rows = "%d rows" % len(body) if name != "audit" else "its candidates"  # as many as registered
    print("%s: %s; %s; %s" % (name, rows, ",".join(head),
          "numpy, pandas and R agree" if not problems else "; ".join(problems[:3])))
PY
