# a subcommand that fails (no gnuplot on PATH for the first figure): the
# report stops with that command's message and its command line, exit 3,
# and removes its temporary folder: nothing is left behind
m=$(cd "$(dirname "$0")/../../../experiments/models" && pwd)/llama-2-7b.json
PATH=/nonexistent "$ROPELAB" report "$m" -o page --samples 2
rc=$?
ls -A
exit $rc
