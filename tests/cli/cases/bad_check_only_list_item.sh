# --only takes the enumerated-list parser of every command: a bad item
# in a list is named with its closest match.
exec "$ROPELAB" check --only t5_buckets,alibi_slope
