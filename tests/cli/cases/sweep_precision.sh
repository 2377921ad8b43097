# precision sweeps as every table command does: --precision a,b is one
# column (its rows carry the pipeline already), --dim and --against put
# theirs in front, every point equals its single run (the columns put in
# front by sed), and shards merge into the whole run.  It refused every
# list ("--dim does not sweep in precision", and --shard was unknown).
set -e
set -- precision --to 300 --points 4
"$ROPELAB" "$@" --precision hf-bf16,ggml-f32 --dim 8,16 --against exact,hf-fp32 --no-meta > sweep.csv
head -n 1 sweep.csv
# the points in the order the options were given, the first outermost
for p in hf-bf16 ggml-f32; do
  for d in 8 16; do
    for a in exact hf-fp32; do
      "$ROPELAB" "$@" --precision $p --dim $d --against $a --no-meta --no-header | sed "s/^/$d,$a,/"
    done
  done
done > loop.csv
tail -n +2 sweep.csv | cmp - loop.csv && echo "rows: same as each point alone"
# one row per position, streamed, as a sweep too
"$ROPELAB" precision --to 3 --bins none --precision hf-bf16,hf-fp32 --dim 4 --no-meta |
  cut -d, -f1-3
# shards: 2 dims x 3 pipelines = 6 points in 4 shards
set -- precision --to 50 --points 2 --precision hf-bf16,hf-fp32,vllm-fp32 --dim 8,16
"$ROPELAB" "$@" | grep -v '^# command=' > whole.csv
for k in 1 2 3 4; do "$ROPELAB" "$@" --shard $k/4 -o part$k.csv; done
"$ROPELAB" merge part1.csv part2.csv part3.csv part4.csv | grep -v '^# command=' |
  cmp - whole.csv && echo "merge: the whole run"
