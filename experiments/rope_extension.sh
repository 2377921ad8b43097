#!/bin/sh
# rope_extension.sh [OUTDIR]: context extension applied after training, on
# a model that learned its task.  Trains RoPE once on copy at L (default
# TRAIN_LEN=20, STEPS=2500, 4 layers, lr 5e-3: experiments/copy_all.sh's
# recipe, with which every scheme reaches >= 99% exact match in
# distribution at L = 20, experiments/copy_all/README.md),
# with --checkpoint, then one 'ropelab evaluate' sweep re-scores it at
# every length 1..4L (EVAL_LEN) under PI (linear), NTK (ntk), YaRN (yarn) and
# dynamic NTK (dynamic, at each test length's own scale), each at
# FACTORS (default 2,4), and plain rope (the baseline, once).  plots/rope_extension.gp draws exact match against the
# test length, a curve per method, a panel per factor, L marked.
# The checkpoint is kept: a second run skips training (delete it, or
# set RETRAIN=1, to train again; one evaluate cannot read, such as one
# of an older format version, is trained again).  Outputs in OUTDIR (default
# experiments/rope_extension): model.ckpt, train.csv (train's own table
# and metadata: times), curve.csv, extension.csv, extension.png.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/experiments/rope_extension}
L=${TRAIN_LEN:-20}
steps=${STEPS:-2500}
factors=${FACTORS:-2,4}
samples=${EVAL_SAMPLES:-128}
N=${EVAL_LEN:-$((4 * L))}
esamples=${SCORE_SAMPLES:-32}
build=${BUILD:-$top/build-train-openblas}
[ -x "$build/src/ropelab" ] || ROPELAB_EXTRA_NEED="libopenblas-dev:/usr/include/x86_64-linux-gnu/openblas-pthread/cblas.h" \
  "$top/experiments/setup.sh" "$build" -Dbuildtype=release -Dtests=false -Dblas=openblas >&2
R=$build/src/ropelab
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
mkdir -p "$out"
if [ ! -f "$out/model.ckpt" ] || [ "${RETRAIN:-0}" = 1 ] ||
  ! "$R" evaluate "$out/model.ckpt" --eval-len 1 --eval-samples 1 --quiet >/dev/null 2>&1; then
  rm -f "$out/model.ckpt"
  nice -n 10 "$R" train --scheme rope --task copy --train-len "$L" --eval-len $((2 * L)) \
    --steps "$steps" --layers 4 --lr 5e-3 --min-lr 5e-4 --seed 1 --threads 2 --eval-samples "$samples" --quiet \
    --checkpoint "$out/model.ckpt" -o "$out/curve.csv" --eval-output "$out/train.csv"
fi
# dynamic scales by the current length over L, as transformers' dynamic
# rotary embedding recomputes for each sequence: evaluate builds it at
# each test length (plain RoPE up to L).  32 examples per length
# (SCORE_SAMPLES): 8 points x 2 schedules x 4L lengths at 128 took more
# CPU than the training on the shared machine.
nice -n 10 "$R" evaluate "$out/model.ckpt" --eval-len "$N" --eval-samples "$esamples" \
  --method rope,linear,ntk,yarn,dynamic --factor "$factors" --jobs 2 --quiet \
  -o "$out/extension.csv"
gnuplot -c "$top/plots/rope_extension.gp" "$out/extension.csv" "$L" "$out/extension.png"
# in-distribution and past-L exact match per method and factor
awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
  { k = $c["method"] " x" $c["factor"]; if ($c["method"] == "rope") { if (seen[$c["len"]]++) next; k = "rope" }
    if ($c["in_dist"] == 1) { a[k] += $c["exact"]; na[k]++ }
    else if ($c["len"] <= 2 * L) { b[k] += $c["exact"]; nb[k]++ }
    else { d[k] += $c["exact"]; nd[k]++ } }
  END { print "method,exact_1..L,exact_L+1..2L,exact_2L+1..4L"
    for (k in a) printf "%s,%.3f,%.3f,%.3f\n", k, a[k] / na[k], b[k] / nb[k], d[k] / nd[k] }' \
  L="$L" "$out/extension.csv" | sort
echo "figure: $out/extension.png" >&2
