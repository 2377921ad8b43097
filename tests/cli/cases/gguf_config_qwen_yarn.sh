# --config on a GGUF header (Qwen2.5 7B with its YaRN entry, written by
# tests/model/test_gguf --write-corpus; facts and sources in test_gguf.c)
# gives the same frequencies as the options written out from the model's
# settings: yarn, factor 4, original 32768, head 3584 / 28 = 128, base 1e6,
# beta 32 / 1.  No values pasted: cmp of the two tables.
set -e
g=$(dirname "$0")/../../fuzz/corpus/gguf/qwen25_7b_yarn.gguf
"$ROPELAB" freqs --config "$g" --no-meta > config.csv
"$ROPELAB" freqs --method yarn --factor 4 --train-len 32768 --dim 128 --base 1000000 \
  --beta-fast 32 --beta-slow 1 --no-meta > options.csv
cmp config.csv options.csv && echo "qwen2.5 yarn: same as the options"
