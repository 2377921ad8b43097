# nope with every key equal to the query: n = 4 equal logits, so the
# planted key gets 1/4 at every distance, the entropy is ln 4 (Python's
# repr(math.log(4)) = 1.3862943611198906), and every sample agrees (se 0).
"$ROPELAB" extrapolate --train-len 2 --eval-len 4 --lengths 4 --distances 0,3 --dim 8 \
  --scheme nope --identical --samples 3 --measure retrieval,entropy --no-meta | cut -d, -f6-12
