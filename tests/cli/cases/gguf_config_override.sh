# An option on the command line overrides one field of a GGUF header
# (Llama 2 7B: head 128, base 10000, context 4096): --base 500000 with the
# file equals the options written out with that base.  cmp, no values.
set -e
g=$(dirname "$0")/../../fuzz/corpus/gguf/llama2_7b.gguf
"$ROPELAB" freqs --config "$g" --base 500000 --no-meta > config.csv
"$ROPELAB" freqs --dim 128 --base 500000 --train-len 4096 --no-meta > options.csv
cmp config.csv options.csv && echo "llama2 with --base 500000: same as the options"
