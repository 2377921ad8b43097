# --layer-type T with --config: a model with a RoPE per attention layer
# type gives the chosen one's.  Gemma 3 as released (transformers'
# Gemma3TextConfig: full attention is rope_theta with rope_scaling,
# sliding attention rope_local_base_freq and no scaling), read from the
# text_config of experiments/models/gemma-3-4b-it.json, equals the
# options written out by hand; so does a rope_parameters keyed by layer
# type (transformers v5's layout, Gemma 4's rotated fraction 0.25 for full
# attention: rot = int(256 x 0.25) = 64).  Rows and metadata must agree
# but for the command, the config's own lines and layer_type.
set -e
m=$(dirname "$0")/../../../experiments/models
strip() { grep -v -e '^# command=' -e '^# config' -e '^# [a-z_]*\.source=' -e '^# layer_type=' "$1"; }
same() {
  label=$1 cfg=$2 lt=$3; shift 3
  "$ROPELAB" freqs --config "$cfg" --layer-type "$lt" > a.csv
  "$ROPELAB" freqs "$@" > b.csv
  strip a.csv > a2.csv; strip b.csv > b2.csv
  if cmp -s a2.csv b2.csv; then echo "same: $label"; else echo "differ: $label"; diff a2.csv b2.csv | head -5; fi
}
same "gemma-3 full_attention" "$m/gemma-3-4b-it.json" full_attention \
  --dim 256 --base 1000000 --layout half --method linear --factor 8
same "gemma-3 sliding_attention" "$m/gemma-3-4b-it.json" sliding_attention \
  --dim 256 --base 10000 --layout half
grep -e '^# layer_type=' -e '^# config.note=rope_scaling' a.csv
cat > g4.json <<'JSON'
{"model_type": "gemma4_text", "head_dim": 256, "max_position_embeddings": 8192,
 "rope_parameters": {
   "full_attention": {"partial_rotary_factor": 0.25, "rope_theta": 1000000.0, "rope_type": "default"},
   "sliding_attention": {"rope_theta": 10000.0, "rope_type": "default"}}}
JSON
same "per-layer full_attention" g4.json full_attention --dim 256 --rot 64 --base 1000000 --layout half
same "per-layer sliding_attention" g4.json sliding_attention --dim 256 --base 10000 --layout half
"$ROPELAB" freqs --config g4.json --layer-type full_attention | grep '^# rot.source='
