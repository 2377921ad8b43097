# report reads a GGUF header as --config does: Qwen2.5 7B with YaRN as
# tests/model/test_gguf writes it (the fuzz seed corpus; facts and sources
# in tests/model/test_gguf.c: hidden 3584 / 28 heads = 128, freq_base 1e6,
# yarn, factor 4, original context 32768, context 32768); the attention
# factor 0.1 ln 4 + 1 = 1.1386294361119890 (YaRN eq. 8, Python's repr);
# the page says the file is GGUF and read by llama.cpp's key names
g=$(dirname "$0")/../../fuzz/corpus/gguf/qwen25_7b_yarn.gguf
"$ROPELAB" report "$g" -o page --samples 2 --bins 4 --quiet || exit 1
awk -F, '$2 ~ /^(dim|rot|base|method|factor|train_len|context_len)$/ { print $2 "=" $3 }' page/summary.csv
awk -F, -v e=1.138629436111989 '$2 == "attention_factor" { d = ($3 - e) / e; print (d < 1e-15 && d > -1e-15) ? "attention factor ok" : "attention factor " $3 }' page/summary.csv
grep -c "(gguf, qwen2) as llama.cpp's loader names its keys" page/report.md
