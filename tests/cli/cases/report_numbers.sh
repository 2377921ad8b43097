# The numbers a report states for L and for C, recomputed from the config
# alone by independent numpy (tests/cli/report_numpy.py: the config read as
# transformers reads it, the frequencies from the repository's decimal
# reference tests/schedules/ref/ref_schedules.py, every measure written
# from its paper; tolerances derived there), on two configs of the tests'
# own: tests/models/small-llama3 (llama3 scaling, L = 2048 < C = 16384,
# d = 64, base 5e5, named by its _name_or_path) and tests/models/small-yarn
# (yarn, s = 4, L = C = 8192, d = 64, base 1e6: attention factor
# 0.1 ln 4 + 1).  Also: every command line on the page ran (each CSV's
# `# command=` line is on the page), the page shows summary.csv's numbers
# to 6 digits, the HTML embeds the figures, nothing is left but the pages.
command -v /usr/bin/python3 >/dev/null 2>&1 && /usr/bin/python3 -c 'import numpy' 2>/dev/null ||
  { echo "no python3-numpy" >&2; exit 77; }
t=$(dirname "$0")/../../models
check=$(dirname "$0")/../report_numpy.py
for m in small-llama3 small-yarn; do
  "$ROPELAB" report "$t/$m/config.json" -o $m --samples 2 --bins 4 --quiet || exit 1
  /usr/bin/python3 "$check" "$t/$m/config.json" $m | tail -n 1
  for f in $m/*.csv; do
    [ "$f" = $m/summary.csv ] && continue
    c=$(sed -n 's/^# command=//p' "$f")
    grep -qxF "$c" $m/report.md || echo "$m: the command of $f is not on the page: $c"
  done
  v() { awk -F, -v k="$1" '$2 == k { print $3 }' $m/summary.csv; }
  u=$(printf '%.6g' "$(v unseen_at_4x_context)")
  grep -q "^| [0-9]* (4C) | $u |\$" $m/report.md && echo "$m: page unseen at 4C = summary's" ||
    echo "$m: page unseen at 4C differs from $u"
  c=$(printf '%.6g' "$(v hf-bf16_worst_cos_err_to_context)")
  grep -q "^| hf-bf16 | 0\.\.[0-9]* ([^)]*C) | $c |" $m/report.md &&
    echo "$m: page bf16 cos error to C = summary's" || echo "$m: page bf16 cos error differs from $c"
  echo "$m: $(grep -o 'src="data:image/png;base64,' $m/report.html | wc -l) figures in the HTML"
done
ls -A
