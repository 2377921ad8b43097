# issue 33 item 5: precision's schedules (the exact one and each
# pipeline's: at d = 2^20 about 0.8 s of CPU each, before any row) count
# in its progress, which starts before them.  Not timed: the first update
# always prints (progress.c), so its percentage is asserted.  One
# pipeline, positions 0..1: each build weighs 1.5 us / 0.1 us = 15
# positions (cost.h), so 2 x 15 + 2 = 32 units and the first line, after
# the exact schedule's build, says 15/32 = 46.9%, printed 46% (16, the
# double's ceil, would say 16/34 = 47%); before, the builds were
# uncounted and the first line said 100% (this run is short).
"$ROPELAB" precision --dim 4096 --to 1 --precision hf-fp32 --progress -o a.csv 2> err.txt || exit 1
tr '\r' '\n' < err.txt | grep . | head -1 | awk '{ p = $3; sub(/%/, "", p); print "first line at " p "%" }'
tr '\r' '\n' < err.txt | tail -1 | grep -q ': 100%' && echo "ends at 100%"
