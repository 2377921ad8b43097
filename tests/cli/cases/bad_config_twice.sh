# one config per command line: a second --config is refused, naming both
m=$(dirname "$0")/../../../experiments/models
"$ROPELAB" freqs --config "$m/llama-2-7b.json" --config "$m/gemma-2-2b.json"
