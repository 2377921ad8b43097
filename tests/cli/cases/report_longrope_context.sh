# a schedule that depends on the current length: Phi-3 mini 128k (LongRoPE,
# 'su', L = 4096, C = 131072, d = 96, base 10000; experiments/models/) has
# its short factors up to L and its long ones at C.  The page's schedule at
# C must be base^(-2i/96) / long_factor[i] with the config's own list
# (Python from the JSON, 1e-15 relative: two roundings of the power and one
# of the division), its first schedule the short list, and the pairs
# turning within C counted on the long one (C theta / 2 pi >= 1)
command -v /usr/bin/python3 >/dev/null 2>&1 || exit 77
m=$(dirname "$0")/../../../experiments/models/phi-3-mini-128k-instruct.json
"$ROPELAB" report "$m" -o page --samples 2 --bins 4 --quiet || exit 1
/usr/bin/python3 - "$m" page <<'PY'
import csv, json, math, sys
cfg = json.load(open(sys.argv[1]))['rope_scaling']
def theta(f):
    return [float(r['theta']) for r in csv.DictReader(l for l in open(f) if not l.startswith('#'))]
for name, key in (('freqs-at-context', 'long_factor'), ('freqs', 'short_factor')):
    t = theta(sys.argv[2] + '/' + name + '.csv')
    want = [10000.0 ** (-2 * i / 96) / f for i, f in enumerate(cfg[key])]
    worst = max(abs(a - b) / b for a, b in zip(t, want))
    print(name, key, len(t), 'ok' if worst < 1e-15 else 'off by %g' % worst)
n = sum(131072 * x / (2 * math.pi) >= 1 for x in theta(sys.argv[2] + '/freqs-at-context.csv'))
s = {r[1]: r[2] for r in csv.reader(l for l in open(sys.argv[2] + '/summary.csv') if not l.startswith('#'))}
print('pairs turning within C', 'ok' if str(n) == s['pairs_turning_within_context'] else s['pairs_turning_within_context'] + ' vs ' + str(n))
PY
