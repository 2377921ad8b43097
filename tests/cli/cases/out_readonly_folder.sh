# A file we may write in a folder we may not (issue 33 item 6): -o (and
# --plot) write a temp file beside the file and rename it over it, which
# the folder refuses, so the run is refused, exit 3, before computing,
# with a message that names the folder (it said "cannot write 'FILE':
# Permission denied", blaming the file); the file and the folder as they
# were.  The reference for "the file is writable" is the shell: ': >'
# on it works as the same user.  As root (who may write anything) the
# runs are made as nobody through setpriv, as out_keeps_mode_links does;
# skipped when neither works.
chmod 755 . .. || exit 99
mkdir ro || exit 99
"$ROPELAB" freqs --dim 4 -o ro/f.csv && echo old > ro/img.png && cp ro/f.csv before.csv || exit 99
as=""
if [ "$(id -u)" = 0 ]; then
  command -v setpriv > /dev/null || { echo "root without setpriv" >&2; exit 77; }
  chown 65534 ro/f.csv ro/img.png
  as="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
chmod 555 ro
$as sh -c 'cat ro/f.csv > /dev/null && : >> ro/f.csv && : >> ro/img.png' 2>/dev/null &&
  echo "shell: both files writable"
$as sh -c ': > ro/new.csv' 2>/dev/null || echo "shell: no new file in the folder"
$as "$ROPELAB" freqs --dim 8 -o ro/f.csv 2>&1; echo "exit $?"
$as "$ROPELAB" freqs --dim 8 -o ro/new.csv 2>&1; echo "exit $?"
$as "$ROPELAB" freqs --dim 8 --plot ro/img.png 2>&1 >/dev/null; echo "exit $?"
cmp -s ro/f.csv before.csv && echo "f.csv unchanged, mode $(stat -c %a ro/f.csv)"
ls -A ro
