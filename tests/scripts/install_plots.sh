#!/bin/sh
# install_plots.sh BUILDDIR: an installed ropelab draws with its installed
# scripts (share/ropelab/plots), never the source tree's plots/.  Installs
# the build with `meson install --destdir` into a temporary folder, moves
# that folder (a relocated installation must still find its own scripts),
# then: (1) --plot works; (2) with the installed scripts removed it fails
# (exit 3) naming a path that is not the source tree's, although the source
# tree's plots/ is still there.  Before the fix (2) drew from plots/ and
# exited 0.  Skips (77) without meson or gnuplot.
set -u
build=$1
command -v meson >/dev/null 2>&1 || { echo "no meson: skipped"; exit 77; }
command -v gnuplot >/dev/null 2>&1 || { echo "no gnuplot: skipped"; exit 77; }
unset ROPELAB_PLOTS_DIR
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
meson install -C "$build" --no-rebuild --destdir "$tmp/dest" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; echo "meson install failed"; exit 1; }
mv "$tmp/dest" "$tmp/moved"
bin=$(find "$tmp/moved" -path '*/bin/ropelab' -type f | head -n 1)
plots=$(find "$tmp/moved" -path '*/share/ropelab/plots' -type d | head -n 1)
[ -x "$bin" ] && [ -d "$plots" ] || { echo "installed binary or plots not found under $tmp/moved"; exit 1; }
cd "$tmp" || exit 1
"$bin" freqs --dim 8 -o f.csv --plot f.png 2>err.txt ||
  { cat err.txt; echo "installed binary could not plot with its installed scripts"; exit 1; }
[ -s f.png ] || { echo "no f.png"; exit 1; }
rm -r "$plots" f.png
"$bin" freqs --dim 8 -o f.csv --plot f.png 2>err.txt
rc=$?
[ $rc -eq 3 ] || { cat err.txt; echo "without its installed scripts: exit $rc, expected 3 (did it use the source tree's plots/?)"; exit 1; }
grep -q "cannot plot: '.*/share/ropelab/plots/freqs.gp'" err.txt ||
  { cat err.txt; echo "the message does not name the installed scripts' path"; exit 1; }
echo "ok: $(cat err.txt)"
