# --help, --version, help, help CMD, help methods and CMD --help onto a
# device that refuses every write (a node like /dev/full, made here):
# exit 3 with one line, as for a table (issue 33 item 6: they were exit
# 0).  The reason (ENOSPC) is printed when the last flush is the write
# that fails; glibc drops its buffer after a failed write, so a text that
# ends on a buffer's edge has none: only the line's start is compared.
mknod ./full c 1 7 2>/dev/null || { echo "mknod needs root" >&2; exit 77; }
: > ./full 2>/dev/null || { echo "device nodes unusable here (nodev)" >&2; exit 77; }
for a in --help --version help 'help decay' 'help methods' 'decay --help' 'merge --help' \
  'decay -h'; do
  "$ROPELAB" $a > ./full 2> err
  echo "$a: exit $?, $(wc -l < err) line, $(sed 's/ output.*/ output/' err)"
done
# the same to a file: exit 0 (the fix checks, it does not refuse)
"$ROPELAB" --version > v.txt; echo "to a file: exit $?, $(cat v.txt)"
[ -c ./full ] && echo "still a character device"
