#!/bin/sh
# run_case.sh CASEDIR NAME: one golden test of the ropelab CLI ($ROPELAB is
# the binary).  CASEDIR/NAME.sh runs in a fresh scratch directory (its
# cwd), under LC_ALL=C unless it says otherwise; then
#   - its exit status must equal NAME.rc (77 from the case means "skip");
#   - its standard output must equal NAME.out byte for byte;
#   - if NAME.err exists, stderr must be exactly one line matching the
#     extended regular expression in NAME.err (git's one-line errors);
#   - a nonzero status with no NAME.err still needs empty stdout unless
#     NAME.out says otherwise (the .out comparison covers that).
set -u
dir=$1 name=$2
: "${ROPELAB:?set ROPELAB to the ropelab binary}"
case $dir in /*) ;; *) dir=$(pwd)/$dir ;; esac
export ROPELAB LC_ALL=C
scratch=$(mktemp -d "${TMPDIR:-/tmp}/ropelab-cli.XXXXXX") || exit 99
trap 'rm -rf "$scratch"' EXIT INT TERM
mkdir "$scratch/work" && cd "$scratch/work" || exit 99
sh "$dir/$name.sh" >"$scratch/.out" 2>"$scratch/.err"
rc=$?
[ "$rc" = 77 ] && { echo "skip: $name"; sed 's/^/# /' "$scratch/.err"; exit 77; }
want=$(cat "$dir/$name.rc")
fail=0
if [ "$rc" != "$want" ]; then
  echo "not ok: $name: exit status $rc, expected $want"; fail=1
fi
if ! cmp -s "$scratch/.out" "$dir/$name.out"; then
  echo "not ok: $name: standard output differs from $name.out:"
  diff "$dir/$name.out" "$scratch/.out" | head -20; fail=1
fi
if [ -f "$dir/$name.err" ]; then
  lines=$(wc -l <"$scratch/.err")
  if [ "$lines" != 1 ] || ! grep -Eq -f "$dir/$name.err" "$scratch/.err"; then
    echo "not ok: $name: stderr should be one line matching: $(cat "$dir/$name.err")"
    echo "  got:"; sed 's/^/  /' "$scratch/.err"; fail=1
  fi
fi
sed 's/^/# stderr: /' "$scratch/.err" | head -20
[ $fail = 0 ] && echo "ok: $name"
exit $fail
