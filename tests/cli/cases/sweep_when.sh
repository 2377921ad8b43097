# A parameter declared to apply only with another's value (yarn's
# --truncate only with --ramp code: the paper's ramp has no correction
# range) is refused where it does not apply, and a sweep over both leaves
# its cell empty there and runs that point once: --ramp code,paper
# --truncate yes,no is 3 points, not 4 (it was refused whole).  Each point
# equals the single run of its options, with ramp and truncate put in
# front by sed.
set -e
"$ROPELAB" freqs --method yarn --ramp paper --truncate no --dim 8 --factor 4 --train-len 64 2>&1 ||
  echo "exit $?"
set -- freqs --method yarn --dim 8 --factor 4 --train-len 64
"$ROPELAB" "$@" --ramp code,paper --truncate yes,no --no-meta > sweep.csv
head -n 1 sweep.csv
{
  "$ROPELAB" "$@" --ramp code --truncate yes --no-meta --no-header | sed 's/^/code,yes,/'
  "$ROPELAB" "$@" --ramp code --truncate no --no-meta --no-header | sed 's/^/code,no,/'
  "$ROPELAB" "$@" --ramp paper --no-meta --no-header | sed 's/^/paper,,/'
} > loop.csv
tail -n +2 sweep.csv | cmp - loop.csv && echo "rows: same as each point alone"
# one value of truncate with the ramp swept: a column, empty at paper
"$ROPELAB" "$@" --ramp code,paper --truncate no > one.csv
grep -v '^#' one.csv | cut -d, -f1-2 | uniq -c | sed 's/^ *//'
grep -E '^# (sweep_points|truncate)' one.csv
