# plots/precision.gp puts pipelines whose rows are identical in one panel,
# ordered by the table's format (float64, float32, bfloat16, float16, then
# first appearance).  Checked against a second computation in Python
# (standard library) from the same CSV, and for the pairs known equal by
# construction: vLLM's rope tables are transformers' (the same float32
# inv_freq and angles; tests/precision/refs agree bit for bit), so
# vllm-X and hf-X must share a panel.  The drawn points: three curves per
# panel (gnuplot's table output), the first of each panel the group's
# max(cos_err, sin_err) at each position (printed with 17 significant
# digits, so equal as doubles).
command -v gnuplot >/dev/null || exit 77
py=$(command -v /usr/bin/python3 || command -v python3) || exit 77
plots=$(dirname "$0")/../../../plots
"$ROPELAB" precision --dim 8 --to 64 --points 4 -o env.csv || exit 1
gnuplot -c "$plots/precision.gp" env.csv env.table table 2>err.txt || exit 1
sed -n 's/^panel *\([0-9]*\) : *\(.*\)/\1 \2/p' err.txt > got.txt
"$py" - <<'PY'
import csv
rows = [r for r in csv.reader(l for l in open("env.csv") if not l.startswith("#"))][1:]
order, sig = [], {}
for r in rows:
    if r[0] not in sig:
        order.append(r[0]); sig[r[0]] = []
    sig[r[0]].append(tuple(r[2:7]))
def rank(p):
    for k, keys in enumerate((("exact", "fp64"), ("f32", "fp32"), ("bf16",), ("f16",))):
        if any(x in p for x in keys):
            return k
    return 4
groups, used = [], set()
for p in sorted(order, key=lambda p: (rank(p), order.index(p))):
    if p in used:
        continue
    g = [q for q in order if q not in used and sig[q] == sig[p]]
    g.sort(key=order.index)
    g.remove(p); g.insert(0, p)
    used.update(g); groups.append(g)
want = ["%d %s" % (k + 1, "=".join(g)) for k, g in enumerate(groups)]
got = open("got.txt").read().split("\n")[:-1]
print("panels as Python's grouping:", got == want, len(got))
for x in ("fp32", "bf16", "f16"):
    print("hf-%s and vllm-%s share a panel:" % (x, x),
          any("hf-" + x in g and "vllm-" + x in g for g in groups))
# the table: blocks of points separated by blank lines, 3 curves a panel
blocks, cur = [], []
for line in open("env.table"):
    if line.startswith("#"):
        continue
    if not line.strip():
        if cur:
            blocks.append(cur); cur = []
        continue
    cur.append(line.split())
if cur:
    blocks.append(cur)
print("curves:", len(blocks), "= 3 x panels:", len(blocks) == 3 * len(groups))
ok = True
for k, g in enumerate(groups):
    pts = [(float(x), float(y)) for x, y, *_ in blocks[3 * k] if _ and _[-1] == "i"]
    ref = [(float(r[2]), max(float(r[3]), float(r[4]))) for r in rows
           if r[0] == g[0] and float(r[2]) > 0 and max(float(r[3]), float(r[4])) > 0]
    ok = ok and len(pts) == len(ref) and all(
        a == c and b == d
        for (a, b), (c, d) in zip(pts, ref))
print("each panel's entry curve is its group's rows:", ok)
PY
