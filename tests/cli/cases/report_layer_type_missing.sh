# Gemma 3 without --layer-type: refused before anything is written, the
# layer types named (as freqs --config refuses it); nothing left behind
m=$(dirname "$0")/../../../experiments/models/gemma-3-4b-it.json
"$ROPELAB" report "$m" -o page
rc=$?
ls -A
exit $rc
