# Models and folders named from the config (issue 36: `report
# Llama/config.json` and `report Qwen/config.json` both wrote
# report-config/, the second silently replacing the first, and the compare
# page called them "A" and "B").  Two copies of Llama 2 7B's config as
# Llama/config.json and Qwen/config.json (the folder names the model when
# the file is a config.json without _name_or_path), and one whose
# _name_or_path is "meta-llama/Llama-2-7b-hf" (the name transformers saves;
# '/' becomes '-' in the folder).  Expected: three folders of their own; a
# report into a folder holding another model's report refused (exit 2,
# the folder untouched) unless --replace; the compare page and its
# summary name both models.
m=$(dirname "$0")/../../../experiments/models/llama-2-7b.json
mkdir Llama Qwen named && cp "$m" Llama/config.json && cp "$m" Qwen/config.json
sed 's/^{/{"_name_or_path": "meta-llama\/Llama-2-7b-hf",/' "$m" > named/config.json
o="--samples 2 --bins 1 --quiet"
"$ROPELAB" report Llama/config.json $o && "$ROPELAB" report Qwen/config.json $o &&
  "$ROPELAB" report named/config.json $o || exit 1
ls -d report-*
sed -n 's/^# model=//p' report-Qwen/summary.csv report-meta-llama-Llama-2-7b-hf/summary.csv
head -1 report-Llama/report.md
"$ROPELAB" report Qwen/config.json -o report-Llama $o 2>&1; echo "status $?"
sed -n 's/^# model=//p' report-Llama/summary.csv
"$ROPELAB" report Qwen/config.json -o report-Llama --replace $o; echo "status $?"
sed -n 's/^# model=//p' report-Llama/summary.csv
"$ROPELAB" report Llama/config.json --compare Qwen/config.json $o || exit 1
ls -d report-*-vs-*
head -1 report-Llama-vs-Qwen/report.md
grep -c '^| dim | 128 | 128 |$' report-Llama-vs-Qwen/report.md
sed -n 's/^# model=//p' report-Llama-vs-Qwen/summary.csv
