# A valid -o or --plot name of 246 to 255 bytes (NAME_MAX of Linux file
# systems) is written (issue 33 item 6): the temp name FILE.tmpXXXXXX
# overflowed NAME_MAX (ENAMETOOLONG, exit 3).  The shell creates each name
# first (the reference that it is valid); the table equals the one
# written to a short name (cmp); no temp file is left.  The temp name is
# FILE's name cut to fit: a stand-in gnuplot (gnuplot -c SCRIPT DATA
# IMAGE TERMINAL) sees the image's temp name, 254 bytes for a 254-byte
# name of 125 two-byte letters (cut at 245 bytes, then back to 244 so that
# no letter is split: valid UTF-8), beginning with the image's name.
"$ROPELAB" freqs --dim 4 --base 100 --no-meta -o short.csv || exit 1
a=$(printf 'a%.0s' $(seq 242))
e=$(printf '\303\251%.0s' $(seq 125))
for name in "${a}.csv" "${a}aaaa.csv" "${a}aaaaaaaaa.csv" "$e.csv"; do
  : > "$name" && rm "$name" || exit 99
  "$ROPELAB" freqs --dim 4 --base 100 --no-meta -o "$name"
  echo "$(printf %s "$name" | wc -c) bytes: exit $?, $(cmp -s short.csv "$name" && echo same table)"
done
mkdir bin || exit 99
cat > bin/gnuplot <<'GP'
#!/bin/sh
t=$(basename "$4")
printf '%s bytes, ' "$(printf %s "$t" | wc -c)" > tmpname.txt
printf %s "$t" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1 && printf 'valid UTF-8, ' >> tmpname.txt
case $t in "$IMG"*) ;; *) echo "not from the image's name" >> tmpname.txt ;; esac
echo image > "$4"
GP
chmod +x bin/gnuplot
: > "$e.png" && rm "$e.png" || exit 99
IMG=$(printf '\303\251%.0s' $(seq 122)) PATH=$PWD/bin:$PATH "$ROPELAB" decay --to 8 -o d.csv --plot "$e.png"
echo "plot: exit $?, temp name $(cat tmpname.txt)$(cat "$e.png")"
echo "temp files left: $(ls -A | grep -c '\.tmp')"
