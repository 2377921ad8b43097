# -o onto a dangling symlink creates the file it points to (in the link
# target's directory, atomically) and keeps the link.  Values as in
# freqs_dim4.
mkdir sub && ln -s sub/new.csv link.csv || exit 99
"$ROPELAB" freqs --dim 4 --base 100 --no-meta -o link.csv
echo "status $?"
[ -L link.csv ] && echo "still a symlink"
cat link.csv
ls -A . sub
