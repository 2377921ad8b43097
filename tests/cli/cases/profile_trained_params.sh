# profile's metadata says which positional parameters are random draws
# rather than trained (issue 36: extrapolate had trained_params=, profile
# nothing).  The expected lines are the initialisations src/ropelab/
# scheme.h documents from each reference (HF T5 init d_model^-1/2: N(0,
# 1/d); Transformer-XL's init_std 0.02 for u, v and W_r as a projection
# N(0, 1/d)), seed 1 the default; rope and alibi learn nothing
# positional, so rope alone has no line.  With --params the file's table
# is not drawn: t5 keeps nothing drawn (no line), while tupe keeps its
# drawn U_q, U_k and relative bias (TUPE's positions come from the file).
"$ROPELAB" profile --to 2 --samples 2 | grep -c '^# trained_params='
"$ROPELAB" profile --scheme rope,alibi,t5,xl --to 2 --samples 2 --seed 7 | grep '^# trained_params='
printf 'bucket,head,bias\n' > t5.csv
for b in 0 1 2 3; do for h in 0 1; do echo "$b,$h,0.5" >> t5.csv; done; done
"$ROPELAB" profile --scheme t5 --buckets 4 --heads 2 --params t5.csv --to 2 --samples 2 | grep -c '^# trained_params='
printf 'position,v0,v1,v2,v3\n0,1,0,0,0\n1,0,1,0,0\n2,0,0,1,0\n3,0,0,0,1\n4,1,1,0,0\n' > tupe.csv
"$ROPELAB" profile --scheme tupe --dim 4 --params tupe.csv --to 2 --samples 2 | grep '^# trained_params='
exit 0
