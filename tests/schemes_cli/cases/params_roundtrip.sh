f=${TMPDIR:-/tmp}/rt_params.$$.csv
"$ROPELAB" params --scheme t5 --what table --buckets 8 --heads 2 --seed 7 > "$f" || exit 1
# read back under another seed: the table must be the file's, not the seed's
grep -v "^#" "$f" > "$f.a"
"$ROPELAB" params --scheme t5 --what table --buckets 8 --heads 2 --seed 99 --params "$f" --no-meta > "$f.b"
cmp -s "$f.a" "$f.b"; echo "same table: $?"
"$ROPELAB" params --scheme t5 --what table --buckets 8 --heads 2 --seed 99 --no-meta | cmp -s - "$f.a"; echo "other seed differs: $?"
wc -l < "$f.a" | tr -d " "
rm -f "$f" "$f.a" "$f.b"
