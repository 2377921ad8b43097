# extrapolate --method A,B,...: the metadata records what each method's
# rows used (issue 36, item 8: it said method=rope and no factor).  L =
# 16, N = 64: a method that takes a factor gets N/L = 4 (by hand) unless
# --factor; the lines a sweep over --method writes: method= the list, a
# setting the methods share once, one that differs per method as
# key[method:M].  YaRN's attention factor 0.1 ln 4 + 1 = 1.138629436111989
# (Python's repr of 0.1*math.log(4)+1), rope's and linear's 1.  The rows
# back the metadata: each method's rows equal those of a run of that
# method alone with the recorded factor given explicitly (cmp, metadata
# aside).  One method alone records its factor too (it did not).
x() { "$ROPELAB" extrapolate --train-len 16 --eval-len 64 --dim 8 --scheme rope --measure unseen,entropy \
      --samples 3 "$@"; }
x --method rope,linear,yarn > all.csv || exit 1
grep -E '^# (method|factor|factor\[.*|attention_factor.*|train_len)=' all.csv
for m in rope linear yarn; do
  f=
  [ $m != rope ] && f="--factor 4"
  # shellcheck disable=SC2086 # $f: no option or two words
  x --method $m $f | grep -v '^#' > one.csv
  grep -v '^#' all.csv | awk -F, -v m=$m 'NR == 1 || $2 == m' | cmp - one.csv && echo "$m rows = --method $m $f"
done
x --method rope,linear --factor 2 | grep -E '^# factor'
x --method yarn | grep -E '^# (method|factor)='
