# a GGUF header cut at 100 bytes: its key/value count outruns the bytes
# left; exit 2, one line with the file and the offset, nothing left behind
head -c 100 "$(dirname "$0")/../../fuzz/corpus/gguf/llama2_7b.gguf" >cut.gguf
"$ROPELAB" report cut.gguf
rc=$?
ls -A
exit $rc
