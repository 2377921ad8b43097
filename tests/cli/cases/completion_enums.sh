# Bash completion of every enumerated argument, asked as bash asks
# (COMP_WORDS, COMP_CWORD): bound's subcommands (its usage line: men, liu,
# pi, yarn), bound men --search (its help: staged or fine), the schemes
# with 'all' (profile's and compare's help: "comma-separated schemes, or
# 'all'"; the twelve schemes of experiments/schemes/README.md), extrapolate --method
# with 'all', after a comma too; check --only against the names
# 'check --list' prints (first column), one by one and after a comma.
comp=$(dirname "$ROPELAB")/cli/dist/ropelab
[ -f "$comp" ] || exit 77
command -v bash >/dev/null 2>&1 || exit 77
"$ROPELAB" check --list | grep -E '^[a-z]' | awk '{ print $1 }' | sort >checks
[ -s checks ] || exit 1
bash -c '
  . "$1"
  ask() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _ropelab
    echo "$* -> $(printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " ")"; }
  ask ropelab bound ""
  ask ropelab bound l
  ask ropelab bound men --search ""
  ask ropelab bound men --search = f
  ask ropelab bound yarn --truncate ""
  ask ropelab profile --scheme ""
  ask ropelab compare --scheme al
  ask ropelab profile --scheme rope,a
  ask ropelab matrix --scheme ""
  ask ropelab extrapolate --scheme a
  ask ropelab extrapolate --method a
  ask ropelab extrapolate --method yarn,a
  COMP_WORDS=(ropelab check --only ""); COMP_CWORD=3; COMPREPLY=(); _ropelab
  printf "%s\n" "${COMPREPLY[@]}" | sort >got
  cmp -s got checks && echo "check --only: the names of check --list" || { echo "check --only differs:"; diff checks got; }
  COMP_WORDS=(ropelab check --only abel_bound,norm_p); COMP_CWORD=3; COMPREPLY=(); _ropelab
  echo "check --only abel_bound,norm_p -> ${COMPREPLY[*]}"' sh "$comp"
