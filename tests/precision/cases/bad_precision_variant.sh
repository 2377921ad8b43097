exec "$ROPELAB" freqs --precision ggml-f32 --variant vllm
