# figures: kazemnejad.gp rope_extension.gp
# The trained models' figures, drawn from the tables committed beside
# them (experiments/kazemnejad, kazemnejad_l20, kazemnejad_l20_d128,
# rope_extension): layout at both text sizes (kazemnejad's L line stopped
# short of the key's band: it ran through the alibi and rope entries).
# Drawn (table terminal): kazemnejad: for every (scheme, task) of
# summary.csv, its mean's extremes over the lengths and its band's (min's
# smallest, max's largest) at their lengths; the number of checks is 4 x
# the pairs awk counts in the summary.  rope_extension: every method's exact
# match reaches its extremes in each factor's panel (rope, as trained, in
# every panel).
. "$(dirname "$0")/../figure.sh"
ex=$figdir/../../experiments
for d in kazemnejad:8 kazemnejad_l20:20 kazemnejad_l20_d128:20; do
  dir=${d%:*} L=${d#*:}
  gnuplot -c "$plots/kazemnejad.gp" "$ex/$dir/summary.csv" "$L" k.svg "" "$ex/$dir/table.csv" || exit 1
  echo "$dir:"
  layout k.svg
  gnuplot -c "$plots/kazemnejad.gp" "$ex/$dir/summary.csv" "$L" k.table table || exit 1
  awk -F, 'NR > 1 && !s[$1 "," $2]++ { print $1, $2 }' "$ex/$dir/summary.csv" > pairs
  while read -r sch task; do
    drawn extremes k.table "$ex/$dir/summary.csv" mean,min,max --x len --where scheme=$sch --where task=$task |
      awk '/^min max|^max min/ { next } { print }'
  done < pairs > got
  echo "checks: $(grep -c . got) of $(( $(grep -c . pairs) * 4 )) (mean's min and max, min's min, max's max), drawn: $(grep -c ': drawn$' got)"
  grep 'NOT drawn' got
done
gnuplot -c "$plots/rope_extension.gp" "$ex/rope_extension/extension.csv" 20 r.svg || exit 1
echo "rope_extension:"
layout r.svg
gnuplot -c "$plots/rope_extension.gp" "$ex/rope_extension/extension.csv" 20 r.table table || exit 1
awk -F, '/^#/ { next } !h { h = 1; next } $2 != "rope" && !s[$1]++ { print $1 }' "$ex/rope_extension/extension.csv" > factors
awk -F, '/^#/ { next } !h { h = 1; next } $2 != "rope" && !s[$2]++ { print $2 }' "$ex/rope_extension/extension.csv" > methods
p=0
while read -r f; do
  p=$((p + 1))
  drawn extremes r.table "$ex/rope_extension/extension.csv" exact --x len --where method=rope --panel $p | sed "s/^/factor $f, rope: /"
  while read -r m; do
    drawn extremes r.table "$ex/rope_extension/extension.csv" exact --x len --where method=$m --where factor=$f --panel $p |
      sed "s/^/factor $f, $m: /"
  done < methods
done < factors
