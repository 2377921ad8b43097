# r = 0: the similarity sum_i cos(0) = n = 64 (d = 128); d = 6 gives 3.
"$ROPELAB" decay --to 0 --measure similarity --no-meta --no-header
"$ROPELAB" decay --dim 6 --to 0 --measure bound,similarity --no-meta --no-header
