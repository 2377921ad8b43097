# audit names the one broken pair of a table and identifies the rest
# Exit 1 where the table is not a clean RoPE (broken pairs, unidentified, a
# bug found): audit fails such a table in CI (issue 36 item 6; it was exit 0).
# (tests/audit/np_tables.py, Debian's python3-numpy, each bug made
# deliberately in an otherwise correct HF rope float32 table, d = 64,
# base 10000, half layout, positions 0..255; never ropelab's output):
#  - sign17: pair 17's sin negated (columns 17 and 49);
#  - zero5: pair 5's frequency zeroed (cos 1, sin 0 in columns 5, 37);
#  - col40: only column 40 (pair 8's second column) with its sin negated.
# Expected: "rope base 10000, half layout (hf-fp32): 31 of 32 pairs within
# tolerance" and the pair with its bug.  Then verify mode on sign17
# without --layout reads the half layout the table shows and names pair
# 17's sin (column 17), not some other column; a 64-column table with no
# repeating columns verified as d = 64 (2 x 32 pairs) is refused (exit 2)
# rather than read in a guessed layout.  dm2 (d - 2 in the exponent of the
# whole table, base 10000, d = 64) is rope of base 10000^(64/62) =
# 13459.603241553... (Python: 13459.603241553643), and the note names the
# bug at base 10000.
py=
for p in /usr/bin/python3 python3; do
  "$p" -c 'import numpy' 2>/dev/null && { py=$p; break; }
done
[ -n "$py" ] || exit 77
gen=$(dirname "$0")/../../audit/np_tables.py
for k in sign17 zero5 col40 pairs128; do "$py" "$gen" $k $k.npy ${k}_sin.npy || exit 1; done
for k in sign17 zero5 col40; do
  "$ROPELAB" audit $k.npy --sin ${k}_sin.npy > out.csv 2>err.txt; echo "exit $?"
  sed -n 's/^# identified=//p' out.csv
  grep -c "^ropelab audit: $k.npy: broken pairs: " err.txt
done
"$ROPELAB" audit sign17.npy --sin sign17_sin.npy --dim 64 --tolerance 1e-6 --no-meta >v.csv
echo "exit $?"; cut -d, -f1,6-8 v.csv
"$ROPELAB" audit pairs128.npy --sin pairs128_sin.npy --dim 64 --tolerance 1e-6; echo "exit $?"
"$py" "$gen" dm2 dm2.csv || exit 1
"$ROPELAB" audit dm2.csv | sed -n 's/^# note=//p'
