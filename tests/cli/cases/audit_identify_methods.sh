# audit identifies NTK (both forms), LongRoPE and p-RoPE tables written by
# Exit 1 where the table is not a clean RoPE (broken pairs, unidentified, a
# bug found): audit fails such a table in CI (issue 36 item 6; it was exit 0).
# independent code (tests/audit/tables.py, Python standard library; never
# ropelab's output), and says "unidentified" rather than naming a wrong
# method.  Expected: the generator's parameters (its docstring):
#  - ntk-f64, Hugging Face's form: base 10000, s = 4, d = 64; the same
#    numbers as a rope of base 10000 * 4^(64/62) = 41829.366 (Python),
#    which the note says
#    (the rounder parameters are shown first);
#  - ntk-vllm: variant vllm, base 10000, s = 4 (theta_0 = 4^(-1/32) < 1
#    tells it from rope);
#  - longrope: base 10000 and the per-pair factors as fitted, compared by
#    awk with the generator's formula 1 for i < 4, 1 + (i - 3)^1.5 / 20,
#    to 1e-5 relative (6 significant digits printed);
#  - prope-f32: p-rope, half layout, hf-fp32, base 10000, fraction 0.75
#    (24 of 32 pairs rotate);
#  - wrongpair (one pair at 1.1 theta) and nonrel (one entry's angle off by
#    0.0095): the rest is identified (rope, base 10000) and the broken pair
#    named: wrongpair's pair 7, found 1.1 times 10000^(-7/32) =
#    0.1333521432163324 (Python), nonrel's pair 5 at 1 of its 64 positions,
#    position 40 (the generator's docstring); exit 0.
# "close" is the best row's error within the fit tolerance (4 ulps: the
# metadata's identified=yes).
command -v python3 >/dev/null 2>&1 || exit 77
gen=$(dirname "$0")/../../audit/tables.py
for k in ntk-f64 ntk-vllm longrope wrongpair; do python3 "$gen" $k $k.csv || exit 1; done
for k in prope-f32 nonrel; do python3 "$gen" $k $k.npy ${k}_sin.npy || exit 1; done
best() { "$ROPELAB" audit "$@" > out.csv 2>err.txt || echo "exit $?"
  grep -c '^# identified=yes' out.csv
  grep -v '^#' out.csv | sed -n '/^rank,/{n;p;}' | awk -F, '{ print $2, $3, $4, $5, $6, $7, $8, $9 }'; }
best ntk-f64.csv; grep -c '^# note=Hugging Face.s ntk is rope of base 41829\.3659' out.csv
best ntk-vllm.csv
best longrope.csv
grep -v '^#' out.csv | sed -n '/^rank,/{n;p;}' | cut -d, -f10 | sed 's/^factors=//' | tr ':' '\n' |
  awk '{ i = NR - 1; f = i < 4 ? 1 : 1 + (i - 3) ^ 1.5 / 20
         if ((($1 - f) / f) ^ 2 > 1e-10) bad++ } END { print NR, "factors,", bad + 0, "off" }'
best prope-f32.npy --sin prope-f32_sin.npy; grep -v '^#' out.csv | sed -n '/^rank,/{n;p;}' | cut -d, -f10
"$ROPELAB" audit wrongpair.csv > out.csv 2>err.txt; echo "exit $?"
sed -n 's/^# identified=//p' out.csv
grep -c '^ropelab audit: wrongpair.csv: broken pairs: rope base 10000, pairs layout (exact): 31 of 32 pairs' err.txt
"$ROPELAB" audit nonrel.npy --sin nonrel_sin.npy > out.csv 2>err.txt; echo "exit $?"
sed -n 's/^# identified=//p' out.csv
