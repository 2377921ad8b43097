# A failing property must fail the caller's build: with every tolerance
# scaled to 0, a check whose measured error is a nonzero rounding error
# (relative_position sums d products in two orders) fails, and check exits
# 1 while still reporting the measured error; an exact property
# (layout_equivalence: the same products in the same order) still passes.
"$ROPELAB" check --only relative_position,layout_equivalence --tolerance-scale 0 --tap >tap.txt
rc=$?
sed -e 's/ # .*//' tap.txt
grep -q '^not ok 1 - relative_position # error=[1-9]' tap.txt && echo "error reported"
exit $rc
