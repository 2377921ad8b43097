# The man page built beside the binary has a section per command that
# 'ropelab --help' lists, and every option each 'ropelab help CMD' defines
# appears in the rendered page as typed (a real minus, for copy and paste).
man=$(dirname "$ROPELAB")/cli/dist/ropelab.1
[ -f "$man" ] || exit 77
command -v groff >/dev/null 2>&1 || exit 77
groff -man -Tutf8 "$man" 2>/dev/null | sed 's/.\x08//g' >page.txt
"$ROPELAB" --help | sed -n '/^commands:/,/^$/p' | grep -E '^  [a-z]' | cut -c3- | cut -d' ' -f1 >cmds
bad=0
while read -r c; do
  grep -q "^\.SS $c\$" "$man" || { echo "no section for $c"; bad=1; }
  for o in $("$ROPELAB" help "$c" | grep -E '^ +(-[a-zA-Z], )?--[a-z]' | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u); do
    grep -qF -- "$o" page.txt || { echo "$c: $o not in the page"; bad=1; }
  done
done <cmds
[ $bad = 0 ] && echo "every command and option in the page"
