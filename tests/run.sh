#!/bin/sh
# run.sh: install what is missing, build with warnings as errors, run every
# test suite, and end with one line "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
builddir=$top/build-test

# python3: the independent references of several golden cases (they would
# otherwise skip on a fresh machine).  locales: the sources of de_DE, from
# which the suites compile a comma
# locale to show that output ignores LC_NUMERIC
ROPELAB_EXTRA_NEED="locales:/usr/share/i18n/locales/de_DE python3:python3 libmpfr-dev:/usr/include/mpfr.h" \
  sh "$top/experiments/setup.sh" build-test -Dwerror=true -Dbuildtype=debugoptimized || {
  echo "0 passed, 1 failed"
  exit 1
}

meson test -C "$builddir" --print-errorlogs "$@" >"$builddir/test-summary.txt" 2>&1
rc=$?
cat "$builddir/test-summary.txt"

# meson's closing block: "Ok: N", "Expected Fail: N", "Fail: N", ...
count() { sed -n "s/^$1:[[:space:]]*\([0-9][0-9]*\).*/\1/p" "$builddir/test-summary.txt" | tail -n 1; }
ok=$(count 'Ok'); xfail=$(count 'Expected Fail'); fail=$(count 'Fail')
xpass=$(count 'Unexpected Pass'); tout=$(count 'Timeout'); skip=$(count 'Skipped')
passed=$(( ${ok:-0} + ${xfail:-0} ))
failed=$(( ${fail:-0} + ${xpass:-0} + ${tout:-0} ))
[ "$rc" -ne 0 ] && [ "$failed" -eq 0 ] && failed=1
echo "${passed} passed, ${failed} failed, ${skip:-0} skipped"
exit "$rc"
