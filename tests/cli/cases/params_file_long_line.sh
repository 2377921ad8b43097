# A line longer than 1 MiB (2^21 leading zeros, then 0.5) was "line too
# long", exit 3.  Lines have no length limit of their own (the file's
# size is bounded): the slope is 0.5 exactly, as strtod reads
# "000...00.5".
awk 'BEGIN { s = "0"; while (length(s) < 2097152) s = s s; print "head,slope"; print "0," s "0.5"; print "1,0.25" }' > long.csv || exit 99
exec "$ROPELAB" params --scheme alibi --heads 2 --params long.csv --no-meta
