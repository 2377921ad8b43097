# Points in 1, 2 or 3 processes: the same bytes (cmp), for a command that
# formats on threads itself (profile, angles) and one that does not; and
# --jobs is left out of '# command=' (it changes no number).
set -e
for j in 1 2 3; do
  "$ROPELAB" decay --to 300 --base 500,1e4,5e5 --dim 32:128:x2 --jobs $j > decay$j.csv
  "$ROPELAB" angles --to 50 --dim 8,16 --method linear,ntk --factor 2,4 --format long --jobs $j > angles$j.csv
  "$ROPELAB" profile --scheme rope,alibi --to 30 --dim 8,16 --jobs $j > profile$j.csv
done
for c in decay angles profile; do
  cmp ${c}1.csv ${c}2.csv && cmp ${c}1.csv ${c}3.csv && echo "$c: same bytes"
done
grep -c jobs decay2.csv || true
