#!/bin/sh
# readme_recipes.sh TOP ROPELAB: the recipe table of
# experiments/train_defaults/README.md ("| scheme | layers | lr | min-lr |
# steps | warmup |") says what the core declares: each scheme's row of
# 'ropelab train --help' ("Each scheme's defaults"), the numbers compared
# as numbers (5e-3 = 0.005), the warmup's divisor the same and its count
# in brackets the steps over it, rounded down (recipe.c: steps /
# warmup_div).  Both lists must name the same schemes, so a recipe
# changed in a pos_*.c fails this test until the page says so.
set -u
top=$1 exe=$2
page=$top/experiments/train_defaults/README.md
doc=$(awk -F'|' '/^\| scheme \| layers \| lr \| min-lr \| steps \| warmup \|$/ { on = 1; next }
  on && /^\|---/ { next }
  on && /^\|/ { for (i = 2; i <= 7; i++) { gsub(/^ +| +$/, "", $i) }
    w = $7; sub(/^K\//, "", w); c = w; sub(/ .*/, "", w); sub(/.*\(/, "", c); sub(/\).*/, "", c)
    print $2, $3, $4 + 0, $5 + 0, $6, w, c; next }
  on { exit }' "$page")
core=$("$exe" train --help | awk '/^Each scheme.s defaults/ { on = 1; next }
  on && /^  [a-z]/ { s = $1; for (i = 2; i < NF; i += 2) v[$i] = $(i + 1)
    w = v["--warmup"]; sub(/^K\//, "", w)
    print s, v["--layers"], v["--lr"] + 0, v["--min-lr"] + 0, v["--steps"], w, int(v["--steps"] / w); next }
  on && /^$/ { exit }')
[ -n "$doc" ] || { echo "no recipe table in $page"; exit 1; }
[ -n "$core" ] || { echo "no 'Each scheme's defaults' rows in 'ropelab train --help'"; exit 1; }
if [ "$doc" = "$core" ]; then
  echo "ok: $(printf '%s\n' "$core" | wc -l) recipes as declared"
  exit 0
fi
echo "experiments/train_defaults/README.md's recipe table differs from 'ropelab train --help'"
echo "(scheme layers lr min-lr steps warmup-divisor warmup-steps; < page, > core):"
tmp=$(mktemp)
printf '%s\n' "$doc" >"$tmp"
printf '%s\n' "$core" | diff "$tmp" - | grep '^[<>]'
rm -f "$tmp"
exit 1
