# `help decay` and `decay --help` are the same text and list the defaults
# of RoFormer Fig. 2.
"$ROPELAB" help decay > a.txt || exit 1
"$ROPELAB" decay --help > b.txt || exit 1
cmp a.txt b.txt && echo same
grep -o -- '--dim D .*(default 128)' a.txt | sed 's/  */ /g'
grep -o -- '--base B .*(default 10000)' a.txt | sed 's/  */ /g'
grep -o -- '--rot R .*(default dim)' a.txt | sed 's/  */ /g'
grep -c -- '(default 0; 1 with --log)' a.txt
grep -c -- '(default 256)' a.txt
grep -c -- '(default 1)' a.txt
grep -c -- '(default bound)' a.txt
grep -c -- '(default 1000)' a.txt
grep -c -- '(1e-100..1e+100; default 1)' a.txt
