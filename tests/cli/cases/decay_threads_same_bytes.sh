# --threads: chunks of rows are computed and formatted by T workers, each
# with its own workspaces, and written in order (src/cli/output/rowpipe.c), so
# the file is the same bytes whatever T.  Grids of several chunks (16384
# rows): dyadic (the recurrence), non-dyadic (accurate angles), a log
# grid; all three measures on a short Monte Carlo run (chunks of 64).
set -e
run() { # run NAME ARGS...: the same command with 1, 2 and 3 threads
  name=$1
  shift
  "$ROPELAB" decay "$@" --threads 1 -o "$name.1.csv"
  "$ROPELAB" decay "$@" --threads 2 -o "$name.2.csv"
  "$ROPELAB" decay "$@" --threads 3 >"$name.3.csv"
  rows=$(grep -vc '^#' "$name.1.csv")
  # all but the metadata's command line, which names --threads and -o
  grep -v '^# command=' "$name.1.csv" >a
  for t in 2 3; do
    grep -v '^# command=' "$name.$t.csv" >b
    cmp -s a b || { echo "$name: threads $t differ"; exit 1; }
  done
  echo "$name: $rows lines, the same with 1, 2, 3 threads"
}
run dyadic --dim 64 --from 0 --to 40000 --measure bound,similarity
run tenth --dim 16 --from 0 --to 4000 --step 0.1 --measure similarity,bound
run log --dim 32 --log --from 1 --to 1e6 --points 20000
run mc --dim 8 --to 2000 --measure mc,bound --samples 8 --seed 5
