# A sweep is the shell loop it replaces: every point's rows, from a
# separate run with --no-meta --no-header, with the swept values put in
# front by sed, in the order of the options (the last one fastest); one
# header with the swept columns first.
set -e
"$ROPELAB" decay --to 20 --base 500,1e4,5e5 --dim 4,8 --measure bound,similarity --no-meta > sweep.csv
for b in 500 10000 500000; do
  for d in 4 8; do
    "$ROPELAB" decay --to 20 --base $b --dim $d --measure bound,similarity --no-meta --no-header |
      sed "s/^/$b,$d,/"
  done
done > loop.csv
head -n 1 sweep.csv
tail -n +2 sweep.csv | cmp - loop.csv && echo "rows: same as the loop"
wc -l < sweep.csv
