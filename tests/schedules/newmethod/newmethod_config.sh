# The test build's method (divided.c) is named by model files through its
# declaration alone: a config.json with rope_scaling {"rope_type":
# "divided", "divisor": 4} and a GGUF header with
# llama.rope.scaling.type "divided" and llama.rope.scaling.divisor 4 read
# as --method divided --divisor 4 (the readers in src/core/model are the
# real binary's, unchanged).  Expected values by hand, as newmethod_cli:
# d = 4, base 100 gives RoFormer's theta = 1, 0.1; divided by 4: 0.25 and
# 0.025, wavelengths 8 pi, 80 pi from a 60-digit pi, ratio 1/4; the GGUF's
# context_length 64 is L (llama.cpp's original length when the file has no
# other), so rotations L theta / (2 pi) = 16 / (2 pi), 1.6 / (2 pi) (Python:
# 2.5464790894703255, 0.25464790894703254) and full_turn 1, 0.  The real
# binary refuses both files, naming the key and the names it knows.
set -e
cat > divided.json <<'JSON'
{"head_dim": 4, "rope_theta": 100.0, "max_position_embeddings": 64,
 "rope_scaling": {"rope_type": "divided", "divisor": 4}}
JSON
"$ROPELAB" freqs --config divided.json --no-meta
"$ROPELAB" freqs --config divided.json | grep -E '^# (method|divisor)(\.source)?='
# a GGUF v3 header, little-endian, no tensors (docs/gguf.md): the magic,
# version 3, 0 tensors, 6 key/value pairs
byte() { printf "\\$(printf '%03o' "$1")"; }
u32() { byte $(($1 & 255)); byte $(($1 >> 8 & 255)); byte $(($1 >> 16 & 255)); byte $(($1 >> 24 & 255)); }
u64() { u32 "$1"; u32 0; }
str() { u64 ${#1}; printf '%s' "$1"; }
{
  printf GGUF; u32 3; u64 0; u64 6
  str general.architecture; u32 8; str llama
  str llama.attention.key_length; u32 4; u32 4
  str llama.context_length; u32 4; u32 64
  str llama.rope.freq_base; u32 6; u32 1120403456    # float32 100 = 0x42c80000
  str llama.rope.scaling.type; u32 8; str divided
  str llama.rope.scaling.divisor; u32 6; u32 1082130432 # float32 4 = 0x40800000
} > divided.gguf
"$ROPELAB" freqs --config divided.gguf --no-meta
"$ROPELAB" freqs --config divided.gguf | grep -E '^# (method|divisor)(\.source)?='
# the declaration's bounds, with the key and the file named
sed 's/"divisor": 4/"divisor": 0.5/' divided.json > half.json
"$ROPELAB" freqs --config half.json 2>&1 >/dev/null || echo "rc $?"
# the real binary knows no such method
"$ROPELAB_REAL" freqs --config divided.json 2>&1 >/dev/null | sed 's/expected .*/expected .../' || true
"$ROPELAB_REAL" freqs --config divided.gguf 2>&1 >/dev/null || echo "rc $?"
