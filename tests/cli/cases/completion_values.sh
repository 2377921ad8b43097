# What bash completes, asked as bash asks (COMP_WORDS, COMP_CWORD): a
# command by prefix, an option by prefix, the names of enumerated values
# (layouts, variants, yarn's yes|no; the methods as 'ropelab help methods'
# lists them), an item after a comma in a list, the --opt=value form, file
# names for file options, nothing for a number.
comp=$(dirname "$ROPELAB")/cli/dist/ropelab
[ -f "$comp" ] || exit 77
command -v bash >/dev/null 2>&1 || exit 77
"$ROPELAB" help methods | grep -E '^  [a-z]' | awk '{ print $1 }' | sort >methods
mkdir dir && : >dir/table.csv
bash -c '
  . "$1"
  ask() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _ropelab; echo "$* -> ${COMPREPLY[*]}"; }
  ask ropelab ang
  ask ropelab angles --lay
  ask ropelab angles --layout ""
  ask ropelab freqs --variant ""
  ask ropelab freqs --truncate ""
  ask ropelab decay --measure bound,s
  ask ropelab angles --layout = h
  ask ropelab freqs -o dir/t
  ask ropelab freqs --dim ""
  ask ropelab help fre
  COMP_WORDS=(ropelab freqs --method ""); COMP_CWORD=3; _ropelab; printf "%s\n" "${COMPREPLY[@]}" | sort >got
  cmp -s got methods && echo "--method: the methods of help methods"' sh "$comp"
