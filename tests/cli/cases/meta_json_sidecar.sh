# --meta json: the CSV has no comment lines, Python's csv reads its header
# as field names; FILE.json parses and holds exactly the '# key=value'
# lines of the same run without --meta json (read back by Python from
# those lines, an independent parse), and the swept values.
command -v python3 >/dev/null || { echo "no python3" >&2; exit 77; }
set -e
A="decay --to 4 --base 500,1e4 --method linear,yarn --factor 2 --train-len 64"
"$ROPELAB" $A --meta json -o t.csv
"$ROPELAB" $A -o c.csv
grep -c '^#' t.csv || true
python3 - <<'PY'
import csv, json
rows = list(csv.DictReader(open('t.csv', newline='')))
print(list(rows[0].keys()), len(rows))
j = json.load(open('t.csv.json'))
lines = [l[2:].rstrip('\n') for l in open('c.csv') if l.startswith('# ')]
kv = [l.split('=', 1) for l in lines]
assert kv[0] == ['ropelab', j['ropelab']]
cmd = kv[1][1]
assert j['command'].replace(' --meta json -o t.csv', '') == cmd.replace(' -o c.csv', '')
assert list(j['parameters'].items()) == [tuple(p) for p in kv[2:]], 'parameters differ'
print('parameters: same as the comment lines')
print(j['sweep'])
assert [r['base'] for r in rows[::5]] == ['500', '500', '10000', '10000']
PY
