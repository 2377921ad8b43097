# The man page built beside the binary, as man-db renders it for a
# terminal of 80 columns (MANWIDTH=80 man -l; C locale, so one byte per
# column), has no line wider than 80 and is the whole page (more than 1000
# lines: every command's help).  Skips without man (man-db; tests/run.sh
# installs it).
man=$(dirname "$ROPELAB")/cli/dist/ropelab.1
[ -f "$man" ] || exit 77
command -v man >/dev/null 2>&1 || exit 77
MANWIDTH=80 MANPAGER=cat PAGER=cat man -l "$man" 2>/dev/null | sed 's/.\x08//g' >page.txt
lines=$(wc -l <page.txt)
# a minimized system's man is a stub that renders nothing
[ "$lines" -gt 0 ] || { echo "man rendered nothing" >&2; exit 77; }
[ "$lines" -gt 1000 ] || { echo "page has only $lines lines"; exit 1; }
wide=$(awk 'length > 80' page.txt | wc -l)
echo "lines wider than 80: $wide"
awk 'length > 80 { print FNR ": " $0 }' page.txt | head -5
