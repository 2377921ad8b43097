# Each scheme's training defaults (src/core/train/recipe.c) as help lists
# them reach the run: a 120-step run per scheme with only --scheme and the
# options that make it cheap (--steps, --d-model, ...; not --layers, --lr,
# --min-lr, --warmup) has in its metadata the layers, lr, min_lr and
# warmup of the help's line for that scheme ("lr/N" is lr/N, "0" is 0,
# compared by awk as numbers; "K/N" is 120/N rounded down: 6 for K/20, 2
# for K/60); the steps given win over the scheme's; a --lr given takes the
# scheme's min-lr as the same fraction of it; --layers given wins.
set -e
"$ROPELAB" train --help > help.txt
sed -n '/^Each scheme.s defaults/,/^$/p' help.txt | awk 'NF == 11 && $2 == "--layers" { print }' > recipes.txt
echo "$(wc -l < recipes.txt) schemes"
while read -r s _ layers _ lr _ minlr _ steps _ warmup; do
  for given in "" "--lr 0.02" "--layers 1"; do
    # shellcheck disable=SC2086
    "$ROPELAB" train --scheme "$s" $given --steps 120 --train-len 2 --eval-len 2 --batch 2 \
      --d-model 8 --heads 2 --eval-samples 1 --peak-seconds 0 --quiet > t.csv
    awk -v s="$s" -v given="$given" -v layers="$layers" -v lr="$lr" -v minlr="$minlr" -v warmup="$warmup" '
      /^# / { split(substr($0, 3), kv, "="); m[kv[1]] = kv[2] }
      END {
        if (given == "--lr 0.02") lr = 0.02
        if (given == "--layers 1") layers = 1
        if (minlr ~ /^lr\//) { split(minlr, f, "/"); want = lr / f[2] } else want = minlr
        split(warmup, w, "/"); wsteps = int(120 / w[2])
        ok = m["layers"] == layers && m["lr"] + 0 == lr + 0 && m["min_lr"] + 0 == want + 0 &&
             m["steps"] == 120 && w[1] == "K" && m["warmup"] == wsteps
        print s " " (given == "" ? "defaults" : given) ": " (ok ? "ok" : "bad layers=" m["layers"] \
          " lr=" m["lr"] " min_lr=" m["min_lr"] " steps=" m["steps"] " warmup=" m["warmup"])
      }' t.csv
  done
done < recipes.txt
