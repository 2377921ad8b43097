# issue 33 item 5: the base search at L = 2^31 - 1 with d = 2^20 (2^19 pairs) scans
# about 1.1e15 distance-pairs, 5600 h at 18 ns: refused up front; the most an
# hour allows is 3600 / (524288 x 18 ns) = 381469 (by hand).
"$ROPELAB" bound men --len 2147483647 --dim 1048576
