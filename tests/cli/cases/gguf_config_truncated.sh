# A GGUF header cut in the middle of its metadata: exit 2, one line naming
# the file and the offset (src/core/model/gguf.c checks every length
# against the bytes left).
g=$(dirname "$0")/../../fuzz/corpus/gguf/mistral_7b.gguf
head -c 100 "$g" > cut.gguf
"$ROPELAB" freqs --config cut.gguf
