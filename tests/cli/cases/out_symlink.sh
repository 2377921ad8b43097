# -o onto a symlink (here a chain: link2.csv -> link.csv -> sub/real.csv)
# replaces the file at its end, atomically in that file's directory; the
# links stay links.  Values as in freqs_dim4.
mkdir sub && echo old > sub/real.csv && ln -s sub/real.csv link.csv && ln -s link.csv link2.csv || exit 99
"$ROPELAB" freqs --dim 4 --base 100 --no-meta -o link2.csv
echo "status $?"
[ -L link.csv ] && [ -L link2.csv ] && echo "still symlinks"
readlink link2.csv link.csv
cat sub/real.csv
ls -A . sub
