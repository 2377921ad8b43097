# What `meson install` puts where (into a --destdir in the scratch folder):
# the tool, the library, the header, the pkg-config file, the man page and
# the bash completion; the installed tool runs, and the installed man page
# renders without warnings (groff, when present).
b=$(dirname "$ROPELAB")/..
meson install -C "$b" --no-rebuild --quiet --destdir "$PWD/d" >/dev/null 2>err.txt || { cat err.txt >&2; exit 1; }
cd d && p=$(find . -path '*/bin/ropelab' | sed 's|/bin/ropelab$||')
for f in bin/ropelab include/ropelab.h share/man/man1/ropelab.1 \
         share/bash-completion/completions/ropelab; do
  [ -f "$p/$f" ] && echo "$f"
done
find "$p/lib" -name ropelab.pc | grep -q . && echo 'lib/.../pkgconfig/ropelab.pc'
find "$p/lib" -name 'libropelab.*' | grep -q . && echo 'lib/.../libropelab.*'
"$p/bin/ropelab" --version | sed 's/[0-9][0-9.]*/V/'
if command -v groff >/dev/null 2>&1; then
  groff -man -Tutf8 -ww -z "$p/share/man/man1/ropelab.1" 2>&1 | head -5
fi
