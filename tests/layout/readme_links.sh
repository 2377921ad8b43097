#!/bin/sh
# readme_links.sh TOP: the README is a guide (issue 34): README.md has at
# most 400 lines, and every relative link of README.md, src/README.md,
# tests/README.md and experiments/**/README.md (figures included) names a
# file or folder that exists in the tree, relative to the README that
# holds it, and not outside the tree; a link's #anchor (to the same page,
# or to a .md file) names a heading of that page, as GitHub makes anchors
# of headings (lowercase, punctuation but '-' and '_' dropped, spaces to
# '-').  Links in fenced code and to a URL (scheme:) are not checked.
# Prints each offender; exit 1 if any.
set -u
top=$(cd "$1" && pwd) bad=0
max=400
n=$(wc -l <"$top/README.md")
if [ "$n" -gt "$max" ]; then
  echo "README.md: $n lines, expected at most $max (the studies go to experiments/<study>/README.md)"
  bad=1
fi
# anchors FILE: the anchor of each heading of FILE, outside ``` fences
anchors() {
  awk '/^[ \t]*```/ { fence = !fence; next }
    !fence && /^#+ / { sub(/^#+ /, ""); print }' "$1" |
    tr '[:upper:]' '[:lower:]' | sed 's/[^a-z0-9 _-]//g; s/ /-/g'
}
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
      '' | [a-zA-Z]*:*) continue ;;
    esac
    path=${target%%#*} anchor=
    case $target in *'#'*) anchor=${target#*#} ;; esac
    if [ -z "$path" ]; then
      anchors "$top/$f" | grep -qxF -- "$anchor" ||
        { echo "$f:$line: link '$target' names no heading of $f"; bad=1; }
      continue
    fi
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
    elif [ -n "$anchor" ] && case $full in *.md) true ;; *) false ;; esac &&
         ! anchors "$full" | grep -qxF -- "$anchor"; then
      echo "$f:$line: link '$target' names no heading of $path"
      bad=1
    fi
  done <<LINKS
$links
LINKS
done
[ $bad = 0 ] && echo "README.md: $n lines; every relative link of the READMEs resolves"
exit $bad
