#!/bin/sh
# train_same_bits.sh OLD NEW: two ropelab binaries train the same runs and
# this says whether every loss-curve row and every evaluation row is the
# same bytes (a change meant to make the trainer faster without changing
# one bit of its arithmetic: experiments/train_bench/README.md).
#
# For each scheme, dtype and seed (SCHEMES, DTYPES, SEEDS; default all
# nine, float32 and float64, 1 2) both binaries run `train --steps STEPS
# --eval-samples EVAL` (default 200 and 32) with -o and --eval-output;
# the files are compared with the curve's wall_s column and the
# metadata lines of time and speed (command, *wall_s, *cpu_s, *per_s,
# the fraction of peak) taken out.  FULL=scheme:seed adds a run at the
# scheme's defaults (no --steps, default evaluation).  Prints one line
# per comparison, then `N identical, N different`; exit 1 if any differ.
set -eu
old=$1 new=$2
steps=${STEPS:-200} ev=${EVAL:-32}
schemes=${SCHEMES:-"nope learned sinusoidal t5 alibi rope xl deberta tupe"}
dtypes=${DTYPES:-"float32 float64"} seeds=${SEEDS:-"1 2"}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
same=0 diff=0
run() { # tag args...: old and new, interleaved, then compare
  tag=$1; shift
  rm -f "$dir"/*.csv
  for b in old new; do
    eval bin=\$$b
    "$bin" train "$@" --quiet -o "$dir/$b-curve.csv" --eval-output "$dir/$b-eval.csv" \
      > /dev/null 2> "$dir/$b-err.txt" || { echo "$tag: $b failed: $(cat "$dir/$b-err.txt")"; }
  done
  for f in curve eval; do
    # the curve's rows: no header line starts '#'; drop wall_s (the last column)
    for b in old new; do
      grep -vE '^# (command|[a-z_]*wall_s|[a-z_]*cpu_s|[a-z_]*per_s|[a-z_]*fraction_of_peak)=' \
        "$dir/$b-$f.csv" > "$dir/$b.txt" || true
    done
    if [ "$f" = curve ]; then
      sed -i '/^#/!s/,[^,]*$//' "$dir/old.txt" "$dir/new.txt"
    fi
    if [ -s "$dir/old.txt" ] && cmp -s "$dir/old.txt" "$dir/new.txt"; then
      same=$((same + 1)); echo "$tag $f: identical ($(grep -vc '^#' "$dir/old.txt") rows)"
    else
      diff=$((diff + 1)); echo "$tag $f: DIFFERENT"; diff "$dir/old.txt" "$dir/new.txt" | head -4
    fi
  done
}
for s in $schemes; do
  for d in $dtypes; do
    for seed in $seeds; do
      run "$s $d seed $seed" --scheme "$s" --dtype "$d" --seed "$seed" --steps "$steps" \
        --eval-samples "$ev"
    done
  done
done
for f in ${FULL:-}; do
  run "${f%%:*} defaults seed ${f#*:}" --scheme "${f%%:*}" --seed "${f#*:}"
done
echo "$same identical, $diff different"
[ "$diff" -eq 0 ]
