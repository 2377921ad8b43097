# The attention factor as Hugging Face rounds it (cos * attention_scaling
# in float32, then .to(bfloat16): modeling_llama.py
# LlamaRotaryEmbedding.forward), not the exact factor squared times the
# table: yarn s = 8 has attn = 0.1 ln 8 + 1 = 1.2079441541679836 (YaRN
# eq. 22).  In bfloat16 (7 fraction bits) it is 1 + 27/128 = 1.2109375
# (0.2079441.. * 128 = 26.617, to nearest 27; the float32 step before
# cannot move it across a tie).  At r = 0 every pair has cos = a at the
# query and the key, sin 0, so with d = 8 (n = 4):
#   similarity = 4 a^2 = 5.865478515625, bound = (n+1)/2 a^2 = 3.665924072265625,
# both exact in binary.  Exact: 4 attn^2 = 5.836517.., 2.5 attn^2 = 3.647823...
"$ROPELAB" decay --precision hf-bf16 --method yarn --factor 8 --train-len 4096 --dim 8 \
  --to 0 --measure bound,similarity --no-meta --no-header
