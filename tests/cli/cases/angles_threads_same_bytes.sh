# --threads: chunks of positions are computed and formatted by T workers
# and written in order (src/cli/output/rowpipe.c), so the table is the same bytes
# whatever T (several chunks of 256 KiB of text; a non-integer step;
# every format).
set -e
for f in long pairs dims hf; do
  opts="--dim 16 --method yarn --factor 4 --train-len 512 --from -100 --to 3000 --step 0.5 --format $f --no-meta"
  "$ROPELAB" angles $opts --threads 1 >"$f.1.csv"
  "$ROPELAB" angles $opts --threads 2 >"$f.2.csv"
  "$ROPELAB" angles $opts --threads 5 >"$f.5.csv"
  cmp -s "$f.1.csv" "$f.2.csv" && cmp -s "$f.1.csv" "$f.5.csv" &&
    echo "$f: $(wc -l <"$f.1.csv") lines, the same with 1, 2, 5 threads"
done
