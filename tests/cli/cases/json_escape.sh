# The one JSON escaper (src/cli/output/json.c) in the --meta json sidecar
# and in JSON Lines: a config path with a quote, a backslash, a tab, 0x01,
# ESC and DEL, over 600 bytes long (past the escaper's 512-byte buffer, so
# a value is written in pieces), reads back through Python's json module
# as the exact path (RFC 8259: '"', '\' and the controls escaped; DEL is
# escaped too, never written raw).
set -e
command -v python3 >/dev/null 2>&1 || exit 77
m=$(dirname "$0")/../../../experiments/models
d=$(printf 'q"b\\t\tc\001e\033d\177')
long=$d
i=0
while [ $i -lt 30 ]; do long="$long/dir-$i-abcdefghij"; i=$((i + 1)); done
mkdir -p "$long"
cp "$m/llama-2-7b.json" "$long/c.json"
"$ROPELAB" freqs --config "$long/c.json" --dim 128 --meta json -o side.csv
"$ROPELAB" freqs --config "$long/c.json" --dim 128 --output-format jsonl -o rows.jsonl
python3 - "$long/c.json" <<'PY'
import json, sys
want = sys.argv[1]
side = json.load(open("side.csv.json", encoding="utf-8"))
first = json.loads(open("rows.jsonl", encoding="utf-8").readline())
def find(o):
    if isinstance(o, dict):
        for k, v in o.items():
            if k == "config":
                return v
            r = find(v)
            if r is not None:
                return r
    return None
for name, o in (("sidecar", side), ("jsonl", first)):
    got = find(o)
    print(name, "path of", len(want), "bytes:", "same" if got == want else "differs")
raw = open("side.csv.json", "rb").read() + open("rows.jsonl", "rb").read()
print("raw DEL or controls:", any(b < 0x20 and b not in (0x0a,) or b == 0x7f for b in raw))
PY
