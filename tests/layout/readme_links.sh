#!/bin/sh
# readme_links.sh TOP: the README is a guide (issue 34): README.md has at
# most 400 lines, and every relative link of README.md, src/README.md,
# tests/README.md and experiments/**/README.md (figures included) names a
# file or folder that exists in the tree, relative to the README that
# holds it, and not outside the tree.  Links in fenced code, to a URL
# (scheme:) or to an anchor of the same page (#...) are not checked; a
# link's #anchor is dropped before the file is looked up.  Prints each
# offender; exit 1 if any.
set -u
top=$(cd "$1" && pwd) bad=0
max=400
n=$(wc -l <"$top/README.md")
if [ "$n" -gt "$max" ]; then
  echo "README.md: $n lines, expected at most $max (the studies go to experiments/<study>/README.md)"
  bad=1
fi
files=$(cd "$top" && { ls README.md src/README.md tests/README.md 2>/dev/null
                       find experiments -name README.md; } | sort -u)
for f in $files; do
  dir=$(dirname "$top/$f")
  # one line per link: LINE<TAB>TARGET (inline links and images, outside ``` fences)
  links=$(awk '/^[ \t]*```/ { fence = !fence; next }
    !fence { s = $0
      while (match(s, /\]\([^)]*\)/)) {
        t = substr(s, RSTART + 2, RLENGTH - 3); sub(/[ \t].*/, "", t)
        print NR "\t" t; s = substr(s, RSTART + RLENGTH) } }' "$top/$f")
  [ -n "$links" ] || continue
  while IFS='	' read -r line target; do
    case $target in
      '' | '#'* | [a-zA-Z]*:*) continue ;;
    esac
    path=${target%%#*}
    case $path in
      /*) echo "$f:$line: link '$target' is absolute, expected a path relative to $f"; bad=1; continue ;;
    esac
    full=$(realpath -m "$dir/$path")
    case $full in
      "$top" | "$top"/*) ;;
      *) echo "$f:$line: link '$target' leaves the tree"; bad=1; continue ;;
    esac
    if [ ! -e "$full" ]; then
      echo "$f:$line: link '$target' names no file ($full)"
      bad=1
    fi
  done <<LINKS
$links
LINKS
done
[ $bad = 0 ] && echo "README.md: $n lines; every relative link of the READMEs resolves"
exit $bad
