# -o names the page's folder: an existing file there is refused, untouched
m=$(dirname "$0")/../../../experiments/models/llama-2-7b.json
echo keep >page
"$ROPELAB" report "$m" -o page
rc=$?
ls -A; cat page
exit $rc
