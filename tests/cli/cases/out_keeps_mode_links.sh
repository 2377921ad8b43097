# -o over an existing regular file behaves as a shell's '>' would, while
# still writing atomically: the file's mode stays (0600 and 0664 became
# 0644), a read-only file is refused when '>' is refused (it was
# replaced), and a file with a second hard link is rewritten in place so
# the link still shares it (the rename split them).  The reference for
# refusal is the shell itself: ': > FILE' run as the same user.  As root
# (who may write anything, as '>' may) the read-only part runs as nobody
# through setpriv; skipped when neither works.
umask 022
for m in 600 664 640; do
  "$ROPELAB" freqs --dim 4 -o m$m.csv && chmod $m m$m.csv && "$ROPELAB" freqs --dim 8 -o m$m.csv &&
    echo "mode $m -> $(stat -c %a m$m.csv), $(grep -vc '^#' m$m.csv) lines"
done
"$ROPELAB" freqs --dim 4 -o a.csv && ln a.csv b.csv && "$ROPELAB" freqs --dim 8 -o a.csv
[ "$(stat -c %i a.csv)" = "$(stat -c %i b.csv)" ] && echo "hard link kept: $(stat -c %h a.csv) links"
cmp -s a.csv b.csv && echo "both names read the new table"
ls -A | grep tmp
# read-only
mkdir ro && chmod 777 ro && chmod 755 . .. || exit 99
"$ROPELAB" freqs --dim 4 -o ro/f.csv && chmod 444 ro/f.csv && cp ro/f.csv before.csv
as=""
if [ "$(id -u)" = 0 ]; then
  command -v setpriv > /dev/null || { echo "root without setpriv" >&2; exit 77; }
  chown 65534 ro/f.csv
  as="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
$as sh -c ': > ro/f.csv' 2> /dev/null && echo "shell: written" || echo "shell: refused"
$as "$ROPELAB" freqs --dim 8 -o ro/f.csv
echo "ropelab: status $?"
cmp -s ro/f.csv before.csv && echo "read-only file unchanged, mode $(stat -c %a ro/f.csv)"
ls -A ro
