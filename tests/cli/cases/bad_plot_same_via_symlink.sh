# -o and --plot reaching one existing file through a symlink (same dev
# and inode): usage error, the file untouched.
echo old > out.svg && ln -s out.svg l.svg || exit 99
"$ROPELAB" decay --to 4 -o out.svg --plot l.svg
rc=$?
cat out.svg
exit $rc
