# --layer-type refusals, each exit 2 with one line and no output: a model
# with a RoPE per layer type read without one (both layouts), a layer type
# the config does not have, one given for a config with one RoPE, or
# without --config, or twice, or for a GGUF header (one RoPE).
m=$(dirname "$0")/../../../experiments/models
cat > g4.json <<'JSON'
{"head_dim": 64, "rope_parameters": {"full_attention": {"rope_theta": 1e6, "rope_type": "default"},
 "sliding_attention": {"rope_theta": 1e4, "rope_type": "default"}}}
JSON
printf 'GGUF\003\000\000\000' > h.gguf; head -c 16 /dev/zero >> h.gguf
run() {
  "$ROPELAB" freqs "$@" > out.csv 2> err.txt
  echo "rc=$? out=$(wc -c < out.csv) lines=$(wc -l < err.txt)"
  sed "s#$m/##; s#'[^']*/gemma#'gemma#" err.txt
}
run --config "$m/gemma-3-4b-it.json"
run --config g4.json
run --config g4.json --layer-type global
run --config "$m/llama-2-7b.json" --layer-type full_attention
run --layer-type full_attention
run --config g4.json --layer-type full_attention --layer-type sliding_attention
run --config h.gguf --layer-type full_attention
