# bound's declared settings sweep like every other option (no values
# pinned: a sweep must equal its single runs with the swept value in
# front, compared with cmp).  Men's --stages 4,5 over two lengths, Liu's
# --tune-len 8192,16384 (a column bound liu writes itself: not added
# again in front); --threads changes no number and is refused as a list.
"$ROPELAB" bound men --stages 4,5 --len 4096,8192 --no-meta > sw.csv || exit 1
for s in 4 5; do
  "$ROPELAB" bound men --stages $s --len 4096,8192 --no-meta --no-header | sed "s/^/$s,/"
done > one.csv
head -1 sw.csv
sed 1d sw.csv | cmp - one.csv && echo "men --stages 4,5 = two runs"
"$ROPELAB" bound liu --tune-len 8192,16384 --len 4096 --no-meta > liu.csv || exit 1
head -1 liu.csv
sed 1d liu.csv > liu.rows
for t in 8192 16384; do
  "$ROPELAB" bound liu --tune-len $t --len 4096 --no-meta --no-header
done | cmp - liu.rows && echo "liu --tune-len 8192,16384 = two runs"
"$ROPELAB" bound men --threads 1,2 --len 4096 2>&1; echo "rc $?"
