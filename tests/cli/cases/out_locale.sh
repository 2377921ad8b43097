# a German locale (decimal comma) changes neither input nor output: build
# de_DE.UTF-8 into a private LOCPATH, check it really has ',' as decimal
# point, then compare with the C locale byte for byte.
command -v localedef >/dev/null 2>&1 || { echo "no localedef" >&2; exit 77; }
mkdir loc
localedef -i de_DE -f UTF-8 loc/de_DE.UTF-8 >/dev/null 2>&1 || { echo "cannot build de_DE" >&2; exit 77; }
dp=$(LOCPATH=$PWD/loc LC_ALL=de_DE.UTF-8 locale decimal_point 2>/dev/null)
[ "$dp" = "," ] || { echo "de_DE decimal point is '$dp'" >&2; exit 77; }
LC_ALL=C "$ROPELAB" decay --to 2 --step 0.25 --base 1e4 --measure bound,similarity > c.csv || exit 1
LOCPATH=$PWD/loc LC_ALL=de_DE.UTF-8 "$ROPELAB" decay --to 2 --step 0.25 --base 1e4 \
  --measure bound,similarity > de.csv || exit 1
cmp c.csv de.csv && echo same
grep -c '0\.25,' de.csv
