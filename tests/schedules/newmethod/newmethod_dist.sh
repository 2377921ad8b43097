# The bash completion and the man page, generated from the test build's
# binary by the same scripts the install uses (src/cli/dist), offer the
# test method's option and its method name with nothing written for them.
command -v bash >/dev/null 2>&1 || exit 77
sh "$DIST/completion.sh" "$DIST/helpscan.sh" "$ROPELAB" > comp || exit 1
bash -c '
  . ./comp
  ask() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _ropelab; echo "$* -> ${COMPREPLY[*]}"; }
  ask ropelab freqs --divi
  ask ropelab decay --method divi'
sh "$DIST/man.sh" "$ROPELAB" 0 | grep -q -- '\\-\\-divisor Q' && echo 'man: --divisor Q documented'
