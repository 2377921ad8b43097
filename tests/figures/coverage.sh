#!/bin/sh
# coverage.sh TOP: every figure script the project uses has a figure case.
# Used: a plots/NAME.gp that a command names (a "NAME.gp" string in
# src/cli) or an experiment runs (NAME.gp in experiments/*.sh).  Covered:
# named on a "# figures:" line of a case in tests/figures/cases that has
# its expected output and status (NAME.out, NAME.rc: a case without them
# checks nothing, it only fails).  Prints the used scripts with the cases
# that check them; exit 1 if one has none.
set -u
top=$1
used=$( { grep -rhoE '"[a-z0-9_]+\.gp"' "$top/src/cli" | tr -d '"'
          grep -hoE '[a-z0-9_]+\.gp' "$top"/experiments/*.sh; } | sort -u)
[ -n "$used" ] || { echo "no figure script found under $top"; exit 1; }
bad=0
for g in $used; do
  [ -f "$top/plots/$g" ] || { echo "$g: named but not in plots/"; bad=1; continue; }
  cases=$(grep -l "^# figures:.*\b$g\b" "$top"/tests/figures/cases/*.sh 2>/dev/null |
          while read -r c; do
            [ -f "${c%.sh}.out" ] && [ -f "${c%.sh}.rc" ] && echo "$c"
          done | sed 's|.*/||; s|\.sh$||' | tr '\n' ' ')
  if [ -z "$cases" ]; then
    echo "$g: NO figure case (tests/figures/cases: a '# figures: $g' line in a case with .out and .rc)"; bad=1
  else
    echo "$g: $cases"
  fi
done
exit $bad
