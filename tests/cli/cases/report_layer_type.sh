# a config with a RoPE per attention layer type (Gemma 3 4B as released,
# experiments/models/gemma-3-4b-it.json): report needs --layer-type, as
# every --config does, and gives it to every command; the sliding layers'
# RoPE is plain with rope_local_base_freq = 10000 and head_dim 256 (the
# config's own values), and each command line on the page carries it
# (8 of them: freqs, bound men --config, decay, precision twice,
# extrapolate, freqs --variant twice; not the plain-RoPE search for the base)
m=$(dirname "$0")/../../../experiments/models/gemma-3-4b-it.json
"$ROPELAB" report "$m" -o page --layer-type sliding_attention --samples 2 --bins 4 --quiet || exit 1
awk -F, '$2 ~ /^(dim|rot|base|method)$/ { print $1 "," $2 "=" $3 }' page/summary.csv
grep -c -- '--config [^ ]*gemma-3-4b-it.json --layer-type sliding_attention' page/report.md
