# --output-format tsv, jsonl, npy (or -o's extension) carry the same
# table as the CSV (issue 15 section 1: one output layer).  No values:
# Python reads each format with its own reader (csv, json, numpy.load)
# and compares it with the CSV read by the csv module: TSV is the CSV with
# tabs (metadata lines unchanged); JSON Lines has one object per row keyed
# by the header, numbers equal to float() of the cell, text as strings,
# empty (n/a) cells null, inf as the string "inf", and the metadata lines
# as its first object; .npy holds float64 (rows, columns) equal to the
# cells (empty: NaN) with the metadata and names in FILE.npy.json.  Then
# the refusals: .npy to standard output, a text column in .npy (nothing
# left behind), --shard with a format other than csv, an unknown format,
# a FIFO (refused before it is opened: it would wait for a reader).  And
# the cases a review found: an angles sweep to .npy (each point had
# renamed its own file, the sweep's empty array replaced them: shape
# (0, 2)) gives 3 positions x (2 + 4 pairs of d = 4, 8) = 18 rows of 5
# columns (dim, pos, pair, cos, sin); matrix --format grid, which has no header row, keeps all 3
# rows in .npy (its first row had been taken for names).
py=
for p in python3 /usr/bin/python3; do
  if "$p" -c 'import numpy' 2>/dev/null; then py=$p; break; fi
done
[ -n "$py" ] || exit 77
set -e
sweep="decay --dim 8 --to 3 --method rope,linear --factor 2 --train-len 16"
"$ROPELAB" $sweep -o t.csv
"$ROPELAB" $sweep -o t.tsv
"$ROPELAB" $sweep --output-format jsonl > t.jsonl
"$ROPELAB" freqs --method p-rope --fraction 0.5 --dim 8 -o p.csv
"$ROPELAB" freqs --method p-rope --fraction 0.5 --dim 8 -o p.jsonl
"$ROPELAB" decay --dim 8 --to 3 --base 10,100 --shard 1/2 -o s1.csv
"$ROPELAB" decay --dim 8 --to 3 --base 10,100 --shard 2/2 -o s2.csv
"$ROPELAB" merge s1.csv s2.csv -o m.npy
"$ROPELAB" decay --dim 8 --to 3 --base 10,100 -o u.csv
set +e
"$py" - <<'PY'
import csv, json, math
import numpy as np

def table(path):
    lines = open(path).read().split("\n")[:-1]
    meta = dict(l[2:].split("=", 1) for l in lines if l.startswith("# "))
    rows = list(csv.reader(l for l in lines if not l.startswith("#")))
    return rows[0], rows[1:], meta, lines

head, body, meta, lines = table("t.csv")
tsv = open("t.tsv").read().split("\n")[:-1]
same = [l if l.startswith("#") else l.replace(",", "\t") for l in lines]
# the command line differs (its -o): compare the rest
print("tsv: the csv with tabs:", [l for l in tsv if "command=" not in l] == [l for l in same if "command=" not in l])

def cell(c):
    if c == "":
        return None
    try:
        v = float(c)
        return v if math.isfinite(v) else c
    except ValueError:
        return c

for name in ("t", "p"):
    head, body, meta, _ = table(name + ".csv")
    objs = [json.loads(l) for l in open(name + ".jsonl")]
    m = objs[0]["ropelab_meta"]
    ok_meta = {k: v for k, v in m.items() if k != "command"} == {k: v for k, v in meta.items() if k != "command"}
    ok_rows = len(objs) - 1 == len(body) and all(
        list(o) == head and [o[h] for h in head] == [cell(c) for c in r] for o, r in zip(objs[1:], body))
    kinds = sorted({type(v).__name__ for o in objs[1:] for v in o.values()})
    print("jsonl %s: metadata %s, rows %s, value kinds %s" % (name, ok_meta, ok_rows, kinds))
    if name == "p":
        print("  inf as:", sorted({o["wavelength"] for o in objs[1:] if isinstance(o["wavelength"], str)}))

head, body, meta, _ = table("u.csv")
a = np.load("m.npy")
side = json.load(open("m.npy.json"))
want = np.array([[float(c) if c else np.nan for c in r] for r in body])
print("npy (merged shards): shape %s, dtype %s, equal %s, columns %s, metadata %s" % (
      a.shape, a.dtype, bool(np.array_equal(a, want, equal_nan=True)), side["columns"] == head,
      {k: v for k, v in side["parameters"].items()} == {k: v for k, v in meta.items() if k not in ("ropelab", "command")}))
PY
"$ROPELAB" decay --dim 8 --to 3 --output-format npy 2>&1; echo "exit $?"
"$ROPELAB" $sweep -o bad.npy 2>&1; echo "exit $?"
ls bad* 2>/dev/null
"$ROPELAB" decay --dim 8 --to 3 --base 10,100 --shard 1/2 --output-format jsonl 2>&1; echo "exit $?"
"$ROPELAB" decay --dim 8 --to 3 --output-format xml 2>&1; echo "exit $?"
mkfifo fifo.npy
"$ROPELAB" angles --dim 8 --to 3 -o fifo.npy 2>&1; echo "exit $?"
"$ROPELAB" angles --format long --dim 4,8 --to 2 -o sw.npy
"$ROPELAB" matrix --scheme rope --len 3 --dim 8 --format grid -o g.npy
"$py" -c 'import json, numpy as np
print("angles sweep .npy:", np.load("sw.npy").shape, json.load(open("sw.npy.json"))["columns"])
print("matrix grid .npy:", np.load("g.npy").shape)'
