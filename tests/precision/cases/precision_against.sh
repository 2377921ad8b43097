# precision --against P: one pipeline against another.  Expected from a
# second path: the cos/sin tables of both pipelines written by `angles
# --precision` (its own code path, the one users dump), and awk taking per
# position the largest |c_bf16 - c_fp32| and |s_bf16 - s_fp32| over the
# pairs; with --bins none each row's cos_err and sin_err must equal them
# (both are differences of the same two doubles: exact, compared as the
# shortest texts parsed back by awk, 0 tolerance).  A pipeline's table
# against itself is 0 everywhere; --against exact is the default.
set -e
A="--dim 16 --base 500000 --from 0 --to 300"
"$ROPELAB" precision --precision hf-bf16 --against hf-fp32 --bins none $A --no-meta > env.csv
"$ROPELAB" angles --precision hf-bf16 --dim 16 --base 500000 --to 300 --no-meta > bf.csv
"$ROPELAB" angles --precision hf-fp32 --dim 16 --base 500000 --to 300 --no-meta > fp.csv
paste -d, bf.csv fp.csv | awk -F, 'NR > 1 { d = $3 - $7; e = $4 - $8; if (d < 0) d = -d; if (e < 0) e = -e
  if (!($1 in c) || d > c[$1]) c[$1] = d; if (!($1 in s) || e > s[$1]) s[$1] = e }
  END { for (m = 0; m <= 300; m++) print m "," c[m] + 0 "," s[m] + 0 }' > want.csv
awk -F, 'NR > 1 { print $3 "," $4 + 0 "," $5 + 0 }' env.csv > got.csv
cmp want.csv got.csv && echo "cos_err, sin_err per position: as the two angles tables"
wc -l < got.csv
awk -F, 'NR > 1 && $4 > 0 { n++ } END { print n + 0 " positions differ" }' env.csv | sed 's/^[1-9][0-9]* /some /'
# a pipeline against itself: its table equals itself (cos, sin, angle 0);
# logit_err is not a difference of tables but the pipeline's own
# dependence on absolute position, so it stays
"$ROPELAB" precision --precision hf-bf16 --against hf-bf16 $A --no-meta |
  awk -F, 'NR > 1 && ($4 != 0 || $5 != 0 || $6 != 0) { bad = 1 } END { print bad ? "not zero" : "itself: tables equal" }'
# --against exact equals the default, byte for byte (metadata aside)
"$ROPELAB" precision --precision hf-bf16 --against exact $A --no-meta > a.csv
"$ROPELAB" precision --precision hf-bf16 $A --no-meta > b.csv
cmp a.csv b.csv && echo "--against exact: the default"
# the first position past E: the first row of env.csv whose cos or sin error exceeds 0.0015
"$ROPELAB" precision --precision hf-bf16 --against hf-fp32 --first-exceeding 0.0015 $A --no-meta |
  tail -n 1 | cut -d, -f3 > first.txt
awk -F, 'NR > 1 && ($4 > 0.0015 || $5 > 0.0015) { print $3; exit }' env.csv | cmp - first.txt &&
  echo "--first-exceeding: the first such row"
