# The command experiments/params/README.md gives for reading a table back
# (its first indented 'ropelab params' line, run as written from the
# repository root) prints the biases of t5_bias.csv: its data rows, as
# numbers, equal the file's (bucket, head, bias) rows.
top=$(cd "$(dirname "$0")/../../.." && pwd)
cmd=$(sed -n 's/^    ropelab params /params /p' "$top/experiments/params/README.md" | head -n 1)
[ -n "$cmd" ] || { echo "no example in the README"; exit 1; }
# shellcheck disable=SC2086 # the README's words
(cd "$top" && "$ROPELAB" $cmd) >got.csv || exit 1
grep -v '^#' "$top/experiments/params/t5_bias.csv" | sed 1d >want
grep -v '^#' got.csv | sed 1d >have
paste -d, want have | awk -F, '{ n++ } NF != 6 || $1 != $4 || $2 != $5 || $3 + 0 != $6 + 0 { bad++ }
  END { printf "%d rows, %d differ from t5_bias.csv\n", n, bad }'
