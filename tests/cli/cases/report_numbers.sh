# ropelab report's numbers equal those of the individual commands, run
# here with options written out by hand (not read from the page), on
# Qwen2.5 7B with its YaRN entry (yarn, s = 4, L = C = 32768, d = 128,
# base 1e6, from experiments/models/): every line is "ok NAME" when the
# page's or summary.csv's number equals the command's, else both values.
m=$(dirname "$0")/../../../experiments/models/qwen2.5-7b-instruct-yarn.json
"$ROPELAB" report "$m" -o page --samples 2 --bins 4 --quiet || exit 1
S=page/summary.csv
val() { awk -F, -v k="$1" '$2 == k { print $3 }' "$S"; }
same() { if [ "$2" = "$3" ]; then echo "ok $1"; else echo "differ $1: page '$2' command '$3'"; fi; }
# the attention factor against its closed form, 0.1 ln s + 1 (YaRN eq. 8),
# to the digits a double carries (1e-15 relative)
awk -v a="$(val attention_factor)" 'BEGIN { e = 0.1 * log(4) + 1; d = (a - e) / e; print (d < 1e-15 && d > -1e-15) ? "ok attention_factor" : "differ attention_factor " a }'
"$ROPELAB" freqs --config "$m" -o f.csv
same attention_factor_meta "$(val attention_factor)" "$(sed -n 's/^# attention_factor=//p' f.csv)"
# pairs turning at least once within C = 32768: C theta / (2 pi) >= 1 by awk
same pairs_turning_within_context "$(val pairs_turning_within_context)" \
  "$(awk -F, '!/^#/ && NR > 1 && 32768 * $2 / (2 * 3.14159265358979323846) >= 1 { n++ } END { print n }' f.csv)"
# Men et al.: the smallest base for 32768 with d = rot = 128; the model's
# own schedule tested at 4C = 131072
"$ROPELAB" bound men --dim 128 --len 32768 -o men.csv
same men_smallest_base "$(val men_smallest_base_for_context)" "$(awk -F, '!/^#/ && NR > 1 { print $4 }' men.csv)"
"$ROPELAB" bound men --config "$m" --len 131072 -o men4.csv
same men_first_fail_4C "$(val men_first_fail_within_4x_context)" "$(awk -F, '!/^#/ && NR > 1 { print $6 }' men4.csv)"
# unseen angles at C, 2C, 4C: exact counts, from a run of its own lengths
"$ROPELAB" extrapolate --config "$m" --scheme rope --measure unseen --eval-len 131072 --lengths 32768,65536 -o u.csv
for k in 1 2 4; do
  n=$((32768 * k)); key=unseen_at_context; [ $k = 1 ] || key=unseen_at_${k}x_context
  same "$key" "$(val $key)" "$(awk -F, -v n=$n '$6 == "unseen" && $8 == n && $10 == "all" { print $11 }' u.csv)"
done
# the decay at r = C from a one-distance run: decay sums the 64 cosines by
# another path on a log grid (the streaming evaluator) than on a linear one
# (block recurrences), so the two agree to rounding, not bit for bit: 1e-15
# relative is 7 ulps of a sum of 64 terms of size <= 1 (measured: 1 ulp)
"$ROPELAB" decay --config "$m" --measure bound,similarity --from 32768 --to 32768 -o d.csv
awk -F, -v a="$(val decay_similarity_near_context)" -v b="$(awk -F, '!/^#/ && NR > 1 { print $3 }' d.csv)" \
  'BEGIN { d = (a - b) / b; print (d < 1e-15 && d > -1e-15 && b != "") ? "ok decay_similarity_C" : "differ decay_similarity_C " a " " b }'
# the worst hf-bf16 cos/sin and logit errors over 0..C, by awk over the
# precision table's bins
"$ROPELAB" precision --config "$m" --precision hf-bf16 --to 32768 -o p.csv
same bf16_cos_sin "$(val hf-bf16_worst_cos_sin_err_to_context)" \
  "$(awk -F, '!/^#/ && NR > 1 { if ($4 + 0 > m) { m = $4 + 0; s = $4 } if ($5 + 0 > m) { m = $5 + 0; s = $5 } } END { print s }' p.csv)"
same bf16_logit "$(val hf-bf16_worst_logit_err_to_context)" \
  "$(awk -F, '!/^#/ && NR > 1 && $7 + 0 > m { m = $7 + 0; s = $7 } END { print s }' p.csv)"
# entropy and retrieval at C: the same draw written out
"$ROPELAB" extrapolate --config "$m" --scheme rope --measure unseen,retrieval,entropy --eval-len 131072 \
  --lengths 8192,16384,32768,65536,131072 --samples 2 -o e.csv
same entropy_C "$(val entropy_at_context)" "$(awk -F, '$6 == "entropy" && $7 == "nats" && $8 == 32768 { print $11 }' e.csv)"
same retrieval_r0_C "$(val retrieval_r0_at_context)" "$(awk -F, '$6 == "retrieval" && $8 == 32768 && $9 == "0" { print $11 }' e.csv)"
# the page shows the summary's numbers to 6 significant digits
u4=$(printf '%.6g' "$(val unseen_at_4x_context)")
grep -q "^| 131072 (4C) | 4 | $u4 |\$" page/report.md && echo "ok page_unseen_row" || echo "differ page_unseen_row $u4"
b=$(printf '%.6g' "$(val hf-bf16_worst_cos_sin_err_to_context)")
grep -q "^| hf-bf16 | $b | $b |" page/report.md && echo "ok page_precision_row" || echo "differ page_precision_row $b"
# every command line on the page ran: each CSV's own command line is on it
for f in page/*.csv; do
  [ "$f" = page/summary.csv ] && continue
  c=$(sed -n 's/^# command=//p' "$f")
  grep -qxF "$c" page/report.md || echo "differ command of $f: $c"
done
echo "ok commands_on_page"
# the HTML embeds the five figures; the first decodes to freqs.png
[ "$(grep -o 'src="data:image/png;base64,' page/report.html | wc -l)" = 5 ] && echo "ok html_figures"
sed -n 's/.*src="data:image\/png;base64,\([^"]*\)".*/\1/p' page/report.html | head -1 | base64 -d >first.png
cmp -s first.png page/freqs.png && echo "ok html_first_figure"
# nothing but the page's folder is left
ls -A
