#!/bin/sh
# run_case.sh ROPELAB CASEDIR NAME: golden test of the scheme commands.
# Runs CASEDIR/NAME.sh with $ROPELAB set; its standard output must equal
# CASEDIR/NAME.out byte for byte and its exit status CASEDIR/NAME.rc.
# A nonzero status must come with exactly one line on stderr, starting
# "ropelab " (git's one-line error convention), and nothing on stdout.
set -u
ROPELAB=$1 dir=$2 name=$3
export ROPELAB LC_ALL=C
tmp=${TMPDIR:-/tmp}/schemes_cli.$$
mkdir -p "$tmp" || exit 99
trap 'rm -rf "$tmp"' EXIT
sh "$dir/$name.sh" >"$tmp/out" 2>"$tmp/err"
rc=$?
want=$(cat "$dir/$name.rc")
fail=0
if [ "$rc" != "$want" ]; then
  echo "not ok: $name: exit status $rc, expected $want"; fail=1
fi
if ! cmp -s "$tmp/out" "$dir/$name.out"; then
  echo "not ok: $name: standard output differs from $name.out:"
  diff "$dir/$name.out" "$tmp/out" | head -20; fail=1
fi
if [ "$want" != 0 ]; then
  lines=$(wc -l <"$tmp/err")
  if [ "$lines" != 1 ] || ! grep -q '^ropelab ' "$tmp/err"; then
    echo "not ok: $name: expected one 'ropelab ...' line on stderr, got:"; cat "$tmp/err"; fail=1
  fi
  sed 's/^/# stderr: /' "$tmp/err"
fi
[ $fail = 0 ] && echo "ok: $name"
exit $fail
