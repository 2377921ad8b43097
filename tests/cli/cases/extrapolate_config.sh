# extrapolate --config takes the model's training length, method and
# factor as well as its schedule (extrapolate reads those three itself).
# No values: the table equals the one with the options written out by
# hand from experiments/models/qwen2.5-7b-instruct-yarn.json (hidden_size
# 3584 / 28 heads = dim 128, rope_theta 1e6, half layout as transformers
# rotates, rope_scaling yarn, factor 4, original_max_position_embeddings
# 32768), compared with cmp.
set -e
m="$(dirname "$0")/../../../experiments/models/qwen2.5-7b-instruct-yarn.json"
x="--scheme rope --measure unseen,retrieval --eval-len 65536 --lengths 32768,65536 --samples 4 --no-meta"
"$ROPELAB" extrapolate --config "$m" $x > a.csv
"$ROPELAB" extrapolate --dim 128 --base 1e6 --layout half --method yarn --factor 4 \
  --train-len 32768 $x > b.csv
cmp a.csv b.csv && echo "extrapolate --config: the options written out"
cut -d, -f2 a.csv | sort -u | tr '\n' ' '; echo
