# GGUF version 1 (32-bit counts and lengths, superseded by version 2):
# exit 2, one line saying version 1 is not read and 2 or 3 is expected.
printf 'GGUF\001\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000' > v1.gguf
"$ROPELAB" freqs --config v1.gguf
