# issue 33 item 5: profile at d = 65536 drew a head's d x d matrices (W_q,
# W_k and up to two of the scheme's own) and ended exit 3 "out of memory"
# under a 4 GB address space; the core's cost model refuses it up front.
# By hand: 4 x 65536^2 x 8 bytes = 1.37e11 (137 GB); the most within 2 GB:
# floor(sqrt(2e9 / 32)) = 7905, even: 7904.
"$ROPELAB" profile --dim 65536
