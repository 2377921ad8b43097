#!/bin/sh
# run_case.sh CASEDIR NAME: one golden test of the ropelab CLI ($ROPELAB is
# the binary), the one runner of every golden folder (tests/cli/cases,
# tests/schedules/cases, tests/schemes_cli/cases, tests/precision/cases,
# tests/schedules/newmethod), in the manner of zstd's tests/cli-tests.
# CASEDIR/NAME.sh runs in a fresh scratch directory (its cwd), under
# LC_ALL=C unless it says otherwise; then
#   - its exit status must equal NAME.rc (77 from the case means "skip");
#   - its standard output must equal NAME.out byte for byte;
#   - if NAME.err exists, stderr must be exactly one line matching the
#     extended regular expression in NAME.err (git's one-line errors);
#   - without NAME.err, an exit status of 2 or 3 (bad input, runtime)
#     still needs exactly one line on stderr starting "ropelab ".
# ROPELAB_UPDATE=1 rewrites NAME.out and NAME.rc from what the case does
# and shows the diff (to review before committing: expected values come
# from an independent derivation, never from this mode alone).
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
if [ "${ROPELAB_UPDATE:-0}" = 1 ]; then
  diff "$dir/$name.out" "$scratch/.out" 2>/dev/null
  [ "$(cat "$dir/$name.rc" 2>/dev/null)" = "$rc" ] || echo "exit status: now $rc"
  cp "$scratch/.out" "$dir/$name.out" && echo "$rc" >"$dir/$name.rc"
  echo "updated: $name"
  exit 0
fi
want=$(cat "$dir/$name.rc")
fail=0
if [ "$rc" != "$want" ]; then
  echo "not ok: $name: exit status $rc, expected $want"; fail=1
fi
if ! cmp -s "$scratch/.out" "$dir/$name.out"; then
  echo "not ok: $name: standard output differs from $name.out:"
  diff "$dir/$name.out" "$scratch/.out" | head -20; fail=1
fi
lines=$(wc -l <"$scratch/.err")
if [ -f "$dir/$name.err" ]; then
  if [ "$lines" != 1 ] || ! grep -Eq -f "$dir/$name.err" "$scratch/.err"; then
    echo "not ok: $name: stderr should be one line matching: $(cat "$dir/$name.err")"
    echo "  got:"; sed 's/^/  /' "$scratch/.err"; fail=1
  fi
elif [ "$rc" = 2 ] || [ "$rc" = 3 ]; then
  if [ "$lines" != 1 ] || ! grep -q '^ropelab ' "$scratch/.err"; then
    echo "not ok: $name: exit $rc needs one 'ropelab ...' line on stderr, got:"
    sed 's/^/  /' "$scratch/.err"; fail=1
  fi
fi
sed 's/^/# stderr: /' "$scratch/.err" | head -20
[ $fail = 0 ] && echo "ok: $name"
exit $fail
