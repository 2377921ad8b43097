# issue 33 item 5: precision's cost estimate counts the rotated pairs
# (--rot), not --dim's: at d = 2^20 with --rot 128, 64 pairs x 10001
# positions x 17 pipelines x 0.1 us is about 1.1 s, accepted (counted as
# 2^19 pairs it was refused as "about 2.48 h").
"$ROPELAB" precision --dim 1048576 --rot 128 --to 1e4 -o a.csv && echo accepted
