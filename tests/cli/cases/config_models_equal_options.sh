# freqs --config MODEL equals freqs with the model's settings written out
# as options, for every model of experiments/models: the options below are
# read by hand from each JSON file (transformers' rules: head_dim, else
# hidden_size / num_attention_heads; rot = int(head_dim *
# partial_rotary_factor or rotary_pct); DeepSeek's qk_rope_head_dim; yarn's
# and llama3's L from rope_scaling.original_max_position_embeddings;
# Phi-3's s = 131072 / 4096 = 32 and L = 4096), and Phi-3's two lists are
# written to a CSV by Python's json module.  The two runs must agree on
# every row and every metadata line but the command line, the factors
# file's name and the config's own lines (config=, *.source=, config.note=).
set -e
m=$(dirname "$0")/../../../experiments/models
python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["rope_scaling"]
print("pair,short,long")
for i, (s, l) in enumerate(zip(r["short_factor"], r["long_factor"])):
    print(f"{i},{s!r},{l!r}")' "$m/phi-3-mini-128k-instruct.json" > phi3.csv || exit 77
strip() { grep -v -e '^# command=' -e '^# factors=' -e '^# config' -e '^# [a-z_]*\.source=' "$1"; }
same() {
  name=$1; shift
  "$ROPELAB" freqs --config "$m/$name.json" > a.csv
  "$ROPELAB" freqs "$@" > b.csv
  strip a.csv > a2.csv; strip b.csv > b2.csv
  if cmp -s a2.csv b2.csv; then echo "same: $name"; else echo "differ: $name"; diff a2.csv b2.csv | head -5; fi
}
same llama-2-7b --dim 128 --base 10000 --layout half
same llama-3.1-8b --dim 128 --base 500000 --layout half --method llama3 --factor 8 \
  --low-freq-factor 1 --high-freq-factor 4 --train-len 8192
same llama-3.2-1b --dim 64 --base 500000 --layout half --method llama3 --factor 32 \
  --low-freq-factor 1 --high-freq-factor 4 --train-len 8192
same mistral-7b-v0.1 --dim 128 --base 10000 --layout half
same qwen2.5-7b-instruct --dim 128 --base 1000000 --layout half
same qwen2.5-7b-instruct-yarn --dim 128 --base 1000000 --layout half --method yarn --factor 4 \
  --train-len 32768
same qwen2-vl-7b-instruct --dim 128 --base 1000000 --layout half --method mrope --sections 16,24,24
same phi-3-mini-128k-instruct --dim 96 --base 10000 --layout half --method longrope --factor 32 \
  --train-len 4096 --factors phi3.csv
same deepseek-v2-lite --dim 64 --base 10000 --layout interleaved --method yarn --factor 40 \
  --train-len 4096 --beta-fast 32 --beta-slow 1 --mscale 0.707 --mscale-all-dim 0.707
same pythia-6.9b-deduped --dim 128 --rot 32 --base 10000 --layout half
same gemma-2-2b --dim 256 --base 10000 --layout half
# Phi-3 past L: the long list, as --factors gives it at the same --seq-len
"$ROPELAB" freqs --config "$m/phi-3-mini-128k-instruct.json" --seq-len 4097 > a.csv
"$ROPELAB" freqs --dim 96 --base 10000 --layout half --method longrope --factor 32 \
  --train-len 4096 --factors phi3.csv --seq-len 4097 > b.csv
strip a.csv > a2.csv; strip b.csv > b2.csv
cmp -s a2.csv b2.csv && echo "same: phi-3 long list at 4097"
grep '^# factors.source=' a.csv
