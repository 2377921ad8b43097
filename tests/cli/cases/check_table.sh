# the default report: PASS NAME error=E tolerance=T (detail), then a count.
"$ROPELAB" check --only norm_preservation --trials 50 > t.txt || exit 1
sed -n 1p t.txt | grep -Ec '^PASS norm_preservation +error=[0-9.e+-]+ +tolerance=[0-9.e+-]+ +\(.*\)$'
sed -n 2p t.txt
