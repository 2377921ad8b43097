#!/bin/sh
# readme_packages.sh TOP: the README's Quick start names every Debian
# package that its two commands install (experiments/setup.sh's list, and
# the ROPELAB_EXTRA_NEED that tests/run.sh adds), each as `name`, and says
# that the closing line ends with "N skipped".  The package names are read
# from the scripts themselves, so a package added there fails this test
# until the README says so.
set -u
top=$1
quick=$(sed -n '/^## Quick start/,/^## /p' "$top/README.md")
pkgs=$( { sed -n '/^need="/,/"$/p' "$top/experiments/setup.sh"
          sed -n 's/^ROPELAB_EXTRA_NEED="\([^"]*\)".*/\1/p' "$top/tests/run.sh"; } |
        tr ' ' '\n' | tr -d '"' | sed -n 's/^\(need=\)\{0,1\}\([a-z0-9][a-z0-9.+-]*\):.*/\2/p')
[ -n "$pkgs" ] || { echo "no packages found in the scripts"; exit 1; }
bad=0
for p in $pkgs; do
  printf '%s\n' "$quick" | grep -q "\`$p\`" || { echo "README Quick start does not name \`$p\`"; bad=1; }
done
printf '%s\n' "$quick" | grep -q 'N passed, N failed, N skipped' ||
  { echo "README Quick start does not give the closing line 'N passed, N failed, N skipped'"; bad=1; }
[ $bad -eq 0 ] && echo "ok: every package named"
exit $bad
