# --config sets a RoPE schedule: with only non-rotary schemes it is refused
# rather than reported as options the scheme does not take
"$ROPELAB" profile --scheme alibi,t5 --to 3 --config "$(dirname "$0")/../../../experiments/models/llama-2-7b.json"
