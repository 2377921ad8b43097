# T5 counts key - query (HF modeling_t5.py compute_bias: memory_position -
# context_position); DeBERTa query - key.  With --causal, T5's rule
# (relative_position = -min(key - query, 0)) puts every key after the
# query in bucket 0, so --from 0 --to 4 is all zeros: the column says
# key_minus_query and one note on stderr says where the past keys are.
"$ROPELAB" params --scheme t5 --causal --from 0 --to 4 --no-meta
