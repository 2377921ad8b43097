#!/bin/sh
# run.sh: install what is missing, build with warnings as errors, run every
# test suite, then the same under the sanitizers, and end with one line
# "N passed, N failed, N skipped".  Meson's line per test streams to stdout
# as the tests finish; a line per finished suite and one per stage go to
# stderr (tests/progress.awk), so that a long run does not look hung.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
builddir=$top/build-test
nstages=2
[ "${ROPELAB_SANITIZE:-1}" != 0 ] || nstages=1
# mawk reads a pipe in blocks unless told it is interactive
awkflags=
awk -W version 2>/dev/null | grep -q mawk && awkflags="-W interactive"

# run_suites STAGE BUILDDIR MESON-TEST-ARGS...: meson test with its output
# streamed through the per-suite progress and kept in BUILDDIR/test-summary.txt;
# its exit status in $suite_rc
run_suites() {
  stage=$1 dir=$2; shift 2
  meson test -C "$dir" --list "$@" >"$dir/test-list.txt" 2>/dev/null
  echo "run.sh: $stage: $(grep -c ' / ' "$dir/test-list.txt") tests" >&2
  # shellcheck disable=SC2086 # $awkflags: empty or two words
  { PYTHONUNBUFFERED=1 meson test -C "$dir" "$@" 2>&1; echo $? >"$dir/test-rc.txt"; } |
    tee "$dir/test-summary.txt" | awk $awkflags -v stage="$stage" -f "$top/tests/progress.awk" "$dir/test-list.txt" -
  suite_rc=$(cat "$dir/test-rc.txt")
}

# python3: the independent references of several golden cases (they would
# otherwise skip on a fresh machine).  locales: the sources of de_DE, from
# which the suites compile a comma
# locale to show that output ignores LC_NUMERIC.  man-db: the man page
# rendered at 80 columns (cli-man_width).  python3-numpy: np.load reads
# `angles -o FILE.npy` back (tests/cli/cases/angles_npy), and writes the
# numpy dumps of the audit_numpy_* and audit_broken_pair cases
# (tests/audit/np_tables.py).  chromium and python3-pil: `ropelab report`'s
# HTML rendered headless and its screenshot read (tests/cli/cases/report_browser).
echo "run.sh: stage 1/$nstages: build-test (warnings as errors), then every suite" >&2
ROPELAB_EXTRA_NEED="locales:/usr/share/i18n/locales/de_DE python3:python3 libmpfr-dev:/usr/include/mpfr.h man-db:man python3-numpy:/usr/lib/python3/dist-packages/numpy python3-pandas:/usr/lib/python3/dist-packages/pandas r-base-core:/usr/bin/Rscript chromium:/usr/bin/chromium python3-pil:/usr/lib/python3/dist-packages/PIL" \
  sh "$top/experiments/setup.sh" build-test -Dwerror=true -Dbuildtype=debugoptimized || {
  echo "0 passed, 1 failed, 0 skipped"
  exit 1
}

run_suites "stage 1/$nstages" "$builddir" --print-errorlogs "$@"
rc=$suite_rc

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
  echo "run.sh: stage 2/2: build-san (address, leak and undefined-behaviour sanitizers), then the suites again" >&2
  echo "== under address, leak and undefined-behaviour sanitizers (build-san) =="
  if sh "$top/experiments/setup.sh" build-san -Dwerror=true -Dbuildtype=debugoptimized \
       -Db_sanitize=address,undefined -Db_lundef=false -Dc_args=-fno-sanitize-recover=all; then
    # exported: an assignment before a function call need not reach it in sh
    export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0:detect_stack_use_after_return=1
    export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
    run_suites "stage 2/2 (sanitizers)" "$sandir" --print-errorlogs --timeout-multiplier 4 \
      --no-suite schedules_ref "$@"
    src=$suite_rc
    tally "$sandir/test-summary.txt" "$src"
    [ "$src" -ne 0 ] && rc=$src
  else
    echo "sanitizer build failed"
    failed=$((failed + 1)) rc=1
  fi
fi
echo "${passed} passed, ${failed} failed, ${skipped} skipped"
exit "$rc"
