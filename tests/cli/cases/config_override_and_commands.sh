# --config's settings come first and an option overrides one each,
# whatever the order; the metadata names the option and the config key it
# replaced.  Options written out by hand from llama-3.1-8b.json (dim 128,
# base 500000, half, llama3, s = 8, low 1, high 4, L = 8192).  Every
# command with a schedule takes --config the same way: angles, decay,
# precision, bound, profile (the scheme commands' rope).
set -e
c=$(dirname "$0")/../../../experiments/models/llama-3.1-8b.json
opts="--dim 128 --base 500000 --layout half --method llama3 --factor 8 --low-freq-factor 1 --high-freq-factor 4 --train-len 8192"
strip() { grep -v -e '^# command=' -e '^# config' -e '^# [a-z_]*\.source=' "$1"; }
same() {
  label=$1 a=$2 b=$3
  # shellcheck disable=SC2086
  "$ROPELAB" $a > a.csv && "$ROPELAB" $b > b.csv
  strip a.csv > a2.csv; strip b.csv > b2.csv
  if cmp -s a2.csv b2.csv; then echo "same: $label"; else echo "differ: $label"; diff a2.csv b2.csv | head -5; fi
}
same "--factor 4 --train-len 4096 before --config" "freqs --factor 4 --train-len 4096 --config $c" \
  "freqs --dim 128 --base 500000 --layout half --method llama3 --factor 4 --low-freq-factor 1 --high-freq-factor 4 --train-len 4096"
grep -e '^# factor.source=' -e '^# train_len.source=' -e '^# low_freq_factor.source=' a.csv
same "--method rope drops llama3's own settings" "freqs --config $c --method rope" \
  "freqs --dim 128 --base 500000 --layout half --train-len 8192"
same angles "angles --to 3 --config $c" "angles --to 3 $opts"
same decay "decay --to 50 --config $c" "decay --to 50 $opts"
same precision "precision --to 100 --precision hf-fp32 --config $c" "precision --to 100 --precision hf-fp32 $opts"
same "bound men" "bound men --config $c" "bound men $opts"
same profile "profile --scheme rope --to 5 --config $c" "profile --scheme rope --to 5 $opts"
# a sweep runs the command again per point with the same config: its rows
# are the two runs', the factor put in front
"$ROPELAB" freqs --config "$c" --factor 2,4 --no-meta > sweep.csv
for s in 2 4; do "$ROPELAB" freqs --config "$c" --factor $s --no-meta --no-header | sed "s/^/$s,/"; done > loop.csv
tail -n +2 sweep.csv | cmp - loop.csv && echo "same: sweep over --factor"
