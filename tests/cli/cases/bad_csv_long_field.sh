# A 2,000-byte field quoted in a message: the value is cut (its start, then
# "... (2000 bytes)") and the message stays whole, ending with what is
# expected; before, the field filled the 1 KB message buffer and the end
# of the message was lost.  The strict CSV reader (--freqs-file).
awk 'BEGIN { printf "pair,theta\n0,"; for (i = 0; i < 2000; i++) printf "x"; printf "\n1,0.1\n" }' > long.csv
exec "$ROPELAB" freqs --method file --freqs-file long.csv --dim 4
