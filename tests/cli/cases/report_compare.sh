# --compare puts two models side by side: Llama 2 7B (d = 128, every
# dimension rotated) and Pythia 6.9B (rotary_pct 0.25: 32 of 128, from
# experiments/models/); the second model's deterministic numbers equal
# those of its own report (its Monte Carlo ones, retrieval and entropy, are
# drawn for the page's common lengths, up to 4C of the larger model, so
# another draw than its own page's), the side-by-side table names both
# models, and the page carries both models' figures
d=$(dirname "$0")/../../../experiments/models
"$ROPELAB" report "$d/llama-2-7b.json" --compare "$d/pythia-6.9b-deduped.json" -o both \
  --samples 2 --bins 4 --quiet || exit 1
"$ROPELAB" report "$d/pythia-6.9b-deduped.json" -o solo --samples 2 --bins 4 --quiet || exit 1
grep -x '| rot | 128 | 32 |' both/report.md
grep -x '| base | 10000 | 10000 |' both/report.md
grep -c '^## ' both/report.md
# the same numbers, the table names prefixed b- in the comparison
awk -F, '!/^#/ && NR > 1 && $1 == "pythia-6.9b-deduped" && $2 !~ /^(retrieval|entropy)/ { sub(/^b-/, "", $4); print $2 "," $3 "," $4 }' both/summary.csv >b.txt
awk -F, '!/^#/ && NR > 1 && $2 !~ /^(retrieval|entropy)/ { print $2 "," $3 "," $4 }' solo/summary.csv >s.txt
cmp b.txt s.txt && echo "same numbers: $(wc -l <s.txt) headline values"
# 4 pairs of figures side by side, then 5 per model (freqs, decay, two
# precision envelopes, extrapolate); 13 tables and 5 figures per model
grep -o 'src="data:image/png;base64,' both/report.html | wc -l
ls both | grep -c '^a-'
ls both | grep -c '^b-'
