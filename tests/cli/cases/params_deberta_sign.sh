# DeBERTa's distance is query - key (modeling_deberta_v2.py
# build_relative_position: q_ids[:, None] - k_ids[None, :]), the opposite
# of T5's, and the column says so.  With position_buckets 256 every
# |rel| <= 128 is its own bucket (make_log_bucket_position: the log part
# starts past mid = 128), row = bucket + k = bucket + 256.
"$ROPELAB" params --scheme deberta --from -2 --to 2 --no-meta
