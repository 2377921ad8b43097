# --precision exact against itself: the same accurate angles, so every
# error is the reference recurrence's alone (<= 1e-13 by ropelab.h); the
# logit compares exact with exact arithmetic in double (<= 1e-14 for a
# unit-variance q.k over 64 pairs).
"$ROPELAB" precision --precision exact --to 5000 --points 4 --no-meta --no-header |
awk -F, '{ n++; for (i = 4; i <= 7; i++) if ($i > 1e-13) bad++ } END { printf "rows=%d bad=%d\n", n, bad }'
