# a config with a RoPE per attention layer type (Gemma 3 4B as released,
# experiments/models/gemma-3-4b-it.json): report needs --layer-type, as
# every --config does, and gives it to every command; the sliding layers'
# RoPE is plain with rope_local_base_freq = 10000 and head_dim 256 (the
# config's own values), the model is named by its file with the layer
# type after it, and each command line on the page carries it (12 of
# them: freqs twice (the schedule, --turns-within), bound men --config,
# decay twice (the figure, r = L and C), precision three times (two
# figures, --by pair), extrapolate twice (unseen and retrieval; entropy),
# freqs --variant twice; not the plain-RoPE search for the base)
m=$(dirname "$0")/../../../experiments/models/gemma-3-4b-it.json
"$ROPELAB" report "$m" -o page --layer-type sliding_attention --samples 2 --bins 4 --quiet || exit 1
awk -F, '$2 ~ /^(dim|rot|base|method)$/ { print $1 "," $2 "=" $3 }' page/summary.csv
grep -c -- '--config [^ ]*gemma-3-4b-it.json --layer-type sliding_attention' page/report.md
