# The bash completion built beside the binary knows every command that
# 'ropelab --help' lists and every option that each 'ropelab help CMD'
# defines (lines starting with blanks and an option, and every --name on
# them), found here by a reading of the help independent of
# src/cli/dist/helpscan.sh, and offers them when bash asks; a command or
# option added later without the completion picking it up fails here.
comp=$(dirname "$ROPELAB")/cli/dist/ropelab
[ -f "$comp" ] || { echo "no completion built (cross build?)" >&2; exit 77; }
command -v bash >/dev/null 2>&1 || exit 77
"$ROPELAB" --help | sed -n '/^commands:/,/^$/p' | grep -E '^  [a-z]' | cut -c3- | cut -d' ' -f1 >cmds
[ -s cmds ] || exit 1
bash -c '
  . "$1"
  ask() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _ropelab; printf "%s\n" "${COMPREPLY[@]}"; }
  bad=0
  ask ropelab "" | sort >got
  { cat cmds; printf "%s\n" help --help --version; } | sort >want
  cmp -s got want || { echo "commands offered differ:"; diff want got; bad=1; }
  while read -r c; do
    "$ROPELAB" help "$c" | grep -E "^ +(-[a-zA-Z], )?--[a-z]" | grep -oE -- "--[a-z][a-z0-9-]*" | sort -u >want
    ask ropelab "$c" -- | sort -u >got
    missing=$(comm -23 want got)
    [ -z "$missing" ] || { echo "$c: options the completion does not know:" $missing; bad=1; }
    extra=$(comm -13 want got)
    [ -z "$extra" ] || { echo "$c: options the completion offers but the help does not define:" $extra; bad=1; }
  done <cmds
  [ $bad = 0 ] && echo "every command and option known"
  exit $bad' sh "$comp"
