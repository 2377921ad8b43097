#!/bin/sh
# run.sh: install what is missing, build with warnings as errors, run every
# test suite, and end with one line "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
builddir=$top/build-test

# python3: the independent references of several golden cases (they would
# otherwise skip on a fresh machine).  locales: the sources of de_DE, from
# which the suites compile a comma
# locale to show that output ignores LC_NUMERIC.  python3-numpy: the numpy-written
# dumps of the audit_numpy_* and audit_broken_pair cases (tests/audit/np_tables.py)
ROPELAB_EXTRA_NEED="locales:/usr/share/i18n/locales/de_DE python3:python3 libmpfr-dev:/usr/include/mpfr.h python3-numpy:/usr/lib/python3/dist-packages/numpy/__init__.py" \
  sh "$top/experiments/setup.sh" build-test -Dwerror=true -Dbuildtype=debugoptimized || {
  echo "0 passed, 1 failed"
  exit 1
}

meson test -C "$builddir" --print-errorlogs "$@" >"$builddir/test-summary.txt" 2>&1
rc=$?
cat "$builddir/test-summary.txt"

# meson's closing block: "Ok: N", "Expected Fail: N", "Fail: N", ...
count() { sed -n "s/^$1:[[:space:]]*\([0-9][0-9]*\).*/\1/p" "$2" | tail -n 1; }
passed=0 failed=0 skipped=0
tally() { # tally SUMMARY-FILE STATUS: add one run's counts
  ok=$(count 'Ok' "$1"); xfail=$(count 'Expected Fail' "$1"); fail=$(count 'Fail' "$1")
  xpass=$(count 'Unexpected Pass' "$1"); tout=$(count 'Timeout' "$1"); skip=$(count 'Skipped' "$1")
  p=$(( ${ok:-0} + ${xfail:-0} )) f=$(( ${fail:-0} + ${xpass:-0} + ${tout:-0} ))
  [ "$2" -ne 0 ] && [ "$f" -eq 0 ] && f=1
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + ${skip:-0}))
}
tally "$builddir/test-summary.txt" "$rc"

# The same suite again under AddressSanitizer (with LeakSanitizer) and
# UndefinedBehaviorSanitizer, every finding fatal, in build-san; counted
# in the same final line.  Left out: the schedules_ref suite, which runs
# the Python reference (no C of its own beyond what the unit and golden
# cases already run; 2.5 of the 4.5 minutes).  ROPELAB_SANITIZE=0 skips
# this part for a quick local run.
if [ "${ROPELAB_SANITIZE:-1}" != 0 ]; then
  sandir=$top/build-san
  if sh "$top/experiments/setup.sh" build-san -Dwerror=true -Dbuildtype=debugoptimized \
       -Db_sanitize=address,undefined -Db_lundef=false -Dc_args=-fno-sanitize-recover=all; then
    ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0:detect_stack_use_after_return=1 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
      meson test -C "$sandir" --print-errorlogs --timeout-multiplier 4 --no-suite schedules_ref \
        "$@" >"$sandir/test-summary.txt" 2>&1
    src=$?
    echo "== under address, leak and undefined-behaviour sanitizers (build-san) =="
    cat "$sandir/test-summary.txt"
    tally "$sandir/test-summary.txt" "$src"
    [ "$src" -ne 0 ] && rc=$src
  else
    echo "sanitizer build failed"
    failed=$((failed + 1)) rc=1
  fi
fi
echo "${passed} passed, ${failed} failed, ${skipped} skipped"
exit "$rc"
