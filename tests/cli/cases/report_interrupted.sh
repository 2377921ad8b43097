# report killed while it works (SIGINT or SIGTERM; issue 33: 6 of 6 runs
# left 'rep.tmp-XXXXXX/' with the subcommands' tables in it), into a new
# folder and into an existing one.  Expected: nothing of the unfinished
# page is left (no temporary folder beside or inside the target, the
# existing folder's own file untouched), the report dies of the signal
# (status 128 + N), and no subcommand runs on.  A background job of a
# script starts with SIGINT ignored (and ropelab keeps an ignored signal
# ignored, as nohup wants): python3 gives it the default action back.
command -v python3 >/dev/null || { echo "no python3" >&2; exit 77; }
m=$(dirname "$0")/../../../experiments/models/llama-2-7b.json
mkdir old && echo keep >old/notes.txt
for sig in INT TERM; do
  for out in new$sig old; do
    python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$ROPELAB" report "$m" -o $out --quiet 2>/dev/null &
    pid=$!
    # wait for the page's temporary folder (at most 20 s), then the signal
    i=0
    until [ -n "$(ls -d $out.tmp-* $out/.report-* 2>/dev/null)" ] || [ $i -ge 400 ]; do
      sleep 0.05; i=$((i + 1))
    done
    sleep 0.3
    kill -$sig $pid
    wait $pid
    echo "$sig ${out%$sig}: status $?"
    ls -A . old | sed 's/^/  /'
  done
done
# a subcommand works in the page's folder, inside this scratch folder
for c in /proc/[0-9]*/cwd; do
  case $(readlink "$c" 2>/dev/null) in "$PWD"/*) echo "a subcommand runs on" ;; esac
done
exit 0
